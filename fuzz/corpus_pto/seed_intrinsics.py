# pypto.program: step_a_scalar_intrinsics
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kern(a: pl.Tensor[[512, 128], pl.FP32], off: pl.Scalar[pl.INDEX], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        t: pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [off, 0], [128, 128], [128, 128], target_memory=pl.Mem.Vec)
        c_1: pl.Tensor[[128, 128], pl.FP32] = pl.tile.store(t, [0, 0], c)
        return c
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def tk(x: pl.Tensor[[128, 128], pl.FP32], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        t: pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [128, 128], [128, 128], target_memory=pl.Mem.Vec)
        c_1: pl.Tensor[[128, 128], pl.FP32] = pl.tile.store(t, [0, 0], c)
        return c
    @pl.function(type=pl.FunctionType.Graph, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def layer(self, w: pl.Tensor[[512, 128], pl.FP32], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[128, 128], pl.FP32]:
        b: pl.Scalar[pl.INDEX] = pl.min(n, 3) * 128
        m: pl.Scalar[pl.INDEX] = abs(n - 4)
        q: pl.Scalar[pl.INT32] = pl.cast(n, pl.INT32)
        z: pl.Scalar[pl.INDEX] = ~n
        wl: pl.Tensor[[128, 128], pl.FP32] = pl.tensor.slice(w, [128, 128], [pl.max(n, 0), 0])
        c_1: pl.Tensor[[128, 128], pl.FP32] = self.kern(w, b, c)
        c_3: pl.Tensor[[128, 128], pl.FP32] = self.kern(w, m, c_1)
        c_4: pl.Tensor[[128, 128], pl.FP32] = self.kern(w, q, c_3)
        c_5: pl.Tensor[[128, 128], pl.FP32] = self.kern(w, z, c_4)
        c_6: pl.Tensor[[128, 128], pl.FP32] = self.tk(wl, c_5)
        for j in pl.range(4):
            k: pl.Scalar[pl.INDEX] = pl.min(j, 3) + pl.max(pl.tensor.dim(w, 0), 4)
            c_7: pl.Tensor[[128, 128], pl.FP32] = self.kern(w, k, c)
        c_8: pl.Tensor[[128, 128], pl.FP32] = self.kern(w, pl.min(3, 4), c)
        return c
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, w: pl.Tensor[[512, 128], pl.FP32], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        for i in pl.range(4):
            c_2: pl.Tensor[[128, 128], pl.FP32] = self.layer(w, c, i + 1)
        return c
