# pypto.program: step_c_scalar_shaped_allocation
# ARGS: --runtime=host_build_graph --hoist-scalar-shaped-allocations
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kern(x: pl.Tensor[[128, 128], pl.FP32], off: pl.Scalar[pl.INDEX], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        t: pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [off, 0], [128, 128], [128, 128], target_memory=pl.Mem.Vec)
        c_1: pl.Tensor[[128, 128], pl.FP32] = pl.tile.store(t, [0, 0], c)
        return c
    @pl.function(type=pl.FunctionType.Graph, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def layer(self, w: pl.Tensor[[4096, 128], pl.FP32], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[128, 128], pl.FP32]:
        rows: pl.Scalar[pl.INDEX] = n * 128
        k: pl.Scalar[pl.INDEX] = rows
        # the shape reads a boundary scalar, a value derived from it and an alias
        s: pl.Tensor[[k, 128], pl.FP32] = pl.tensor.create([k, 128], dtype=pl.FP32, layout=pl.TensorLayout.ND)
        u: pl.Tensor[[n, pl.tensor.dim(w, 1)], pl.FP32] = pl.tensor.create([n, pl.tensor.dim(w, 1)], dtype=pl.FP32, layout=pl.TensorLayout.ND)
        c_1: pl.Tensor[[128, 128], pl.FP32] = self.kern(s, n, c)
        c_2: pl.Tensor[[128, 128], pl.FP32] = self.kern(u, k, c)
        return c
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, w: pl.Tensor[[4096, 128], pl.FP32], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        for i in pl.range(4):
            c_1: pl.Tensor[[128, 128], pl.FP32] = self.layer(w, c, i + 1)
        return c
