# pypto.program: step_d_node_limit_exact
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
    def layer(self, a: pl.Tensor[[512, 128], pl.FP32], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        for j in pl.range(1000):
            c_1: pl.Tensor[[128, 128], pl.FP32] = self.tk(c, c)
        for j2 in pl.range(2):
            s0: pl.Tensor[[16], pl.FP32] = pl.tensor.create([16], dtype=pl.FP32, layout=pl.TensorLayout.ND)
            s1: pl.Tensor[[16], pl.FP32] = pl.tensor.create([16], dtype=pl.FP32, layout=pl.TensorLayout.ND)
            s2: pl.Tensor[[16], pl.FP32] = pl.tensor.create([16], dtype=pl.FP32, layout=pl.TensorLayout.ND)
            s3: pl.Tensor[[16], pl.FP32] = pl.tensor.create([16], dtype=pl.FP32, layout=pl.TensorLayout.ND)
            s4: pl.Tensor[[16], pl.FP32] = pl.tensor.create([16], dtype=pl.FP32, layout=pl.TensorLayout.ND)
            s5: pl.Tensor[[16], pl.FP32] = pl.tensor.create([16], dtype=pl.FP32, layout=pl.TensorLayout.ND)
            s6: pl.Tensor[[16], pl.FP32] = pl.tensor.create([16], dtype=pl.FP32, layout=pl.TensorLayout.ND)
            s7: pl.Tensor[[16], pl.FP32] = pl.tensor.create([16], dtype=pl.FP32, layout=pl.TensorLayout.ND)
            s8: pl.Tensor[[16], pl.FP32] = pl.tensor.create([16], dtype=pl.FP32, layout=pl.TensorLayout.ND)
            s9: pl.Tensor[[16], pl.FP32] = pl.tensor.create([16], dtype=pl.FP32, layout=pl.TensorLayout.ND)
            s10: pl.Tensor[[16], pl.FP32] = pl.tensor.create([16], dtype=pl.FP32, layout=pl.TensorLayout.ND)
            s11: pl.Tensor[[16], pl.FP32] = pl.tensor.create([16], dtype=pl.FP32, layout=pl.TensorLayout.ND)
            s12: pl.Tensor[[16], pl.FP32] = pl.tensor.create([16], dtype=pl.FP32, layout=pl.TensorLayout.ND)
            s13: pl.Tensor[[16], pl.FP32] = pl.tensor.create([16], dtype=pl.FP32, layout=pl.TensorLayout.ND)
            s14: pl.Tensor[[16], pl.FP32] = pl.tensor.create([16], dtype=pl.FP32, layout=pl.TensorLayout.ND)
            s15: pl.Tensor[[16], pl.FP32] = pl.tensor.create([16], dtype=pl.FP32, layout=pl.TensorLayout.ND)
            s16: pl.Tensor[[16], pl.FP32] = pl.tensor.create([16], dtype=pl.FP32, layout=pl.TensorLayout.ND)
        c_2: pl.Tensor[[128, 128], pl.FP32] = self.tk(c, c)
        c_3: pl.Tensor[[128, 128], pl.FP32] = self.tk(c, c)
        c_4: pl.Tensor[[128, 128], pl.FP32] = self.tk(c, c)
        c_5: pl.Tensor[[128, 128], pl.FP32] = self.tk(c, c)
        c_6: pl.Tensor[[128, 128], pl.FP32] = self.tk(c, c)
        c_7: pl.Tensor[[128, 128], pl.FP32] = self.tk(c, c)
        c_8: pl.Tensor[[128, 128], pl.FP32] = self.tk(c, c)
        c_9: pl.Tensor[[128, 128], pl.FP32] = self.tk(c, c)
        c_10: pl.Tensor[[128, 128], pl.FP32] = self.tk(c, c)
        c_11: pl.Tensor[[128, 128], pl.FP32] = self.tk(c, c)
        c_12: pl.Tensor[[128, 128], pl.FP32] = self.tk(c, c)
        c_13: pl.Tensor[[128, 128], pl.FP32] = self.tk(c, c)
        c_14: pl.Tensor[[128, 128], pl.FP32] = self.tk(c, c)
        c_15: pl.Tensor[[128, 128], pl.FP32] = self.tk(c, c)
        c_16: pl.Tensor[[128, 128], pl.FP32] = self.tk(c, c)
        c_17: pl.Tensor[[128, 128], pl.FP32] = self.tk(c, c)
        c_18: pl.Tensor[[128, 128], pl.FP32] = self.tk(c, c)
        c_19: pl.Tensor[[128, 128], pl.FP32] = self.tk(c, c)
        c_20: pl.Tensor[[128, 128], pl.FP32] = self.tk(c, c)
        c_21: pl.Tensor[[128, 128], pl.FP32] = self.tk(c, c)
        return c
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[512, 128], pl.FP32], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        c_2: pl.Tensor[[128, 128], pl.FP32] = self.layer(a, c)
        return c
