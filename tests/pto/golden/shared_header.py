# pypto.program: shared_header
# Function headers share their trees (the parser's parse_shared, in
# src/pto/pto_parse.c): layer and layer2 have the same decorator and the
# same parameter and return annotation text, which is also the text of the
# other functions' and the statements' annotations. Legalize gives layer
# four new parameters (the allocations a0 and a1 as InOut, the hoisted view
# v0 and scalar d0: copies of the statements' shared annotation trees, two
# of them wrapped in pl.InOut) and layer2 none; every other header prints
# back as written.
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kern(x: pl.Tensor[[128, 128], pl.FP32], off: pl.Scalar[pl.INDEX], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        t: pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [off, 0], [128, 128], [128, 128], target_memory=pl.Mem.Vec)
        c_1: pl.Tensor[[128, 128], pl.FP32] = pl.tile.store(t, [0, 0], c)
        return c
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def tk(x: pl.Tensor[[128, 128], pl.FP32], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        t: pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [128, 128], [128, 128], target_memory=pl.Mem.Vec)
        c_1: pl.Tensor[[128, 128], pl.FP32] = pl.tile.store(t, [0, 0], c)
        return c
    @pl.function(type=pl.FunctionType.Graph, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def layer(self, w: pl.Tensor[[4096, 128], pl.FP32], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]], idx: pl.Scalar[pl.INDEX]) -> pl.Tensor[[128, 128], pl.FP32]:
        d0: pl.Scalar[pl.INDEX] = idx * 2
        v0: pl.Tensor[[128, 128], pl.FP32] = pl.tensor.slice(w, [128, 128], [d0, 0])
        a0: pl.Tensor[[128, 128], pl.FP32] = pl.tensor.create([128, 128], dtype=pl.FP32, layout=pl.TensorLayout.ND)
        a1: pl.Tensor[[128, 128], pl.FP32] = pl.tensor.create([128, 128], dtype=pl.FP32, layout=pl.TensorLayout.ND)
        c_1: pl.Tensor[[128, 128], pl.FP32] = self.kern(v0, d0, c)
        c_2: pl.Tensor[[128, 128], pl.FP32] = self.tk(a0, c_1)
        c_3: pl.Tensor[[128, 128], pl.FP32] = self.tk(a1, c_2)
        return c_3
    @pl.function(type=pl.FunctionType.Graph, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def layer2(self, w: pl.Tensor[[4096, 128], pl.FP32], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]], idx: pl.Scalar[pl.INDEX]) -> pl.Tensor[[128, 128], pl.FP32]:
        c_1: pl.Tensor[[128, 128], pl.FP32] = self.kern(c, idx, c)
        return c_1
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main0(self, w: pl.Tensor[[4096, 128], pl.FP32], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        c_0: pl.Tensor[[128, 128], pl.FP32] = self.layer(w, c, 0)
        return c_0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main1(self, w: pl.Tensor[[4096, 128], pl.FP32], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        c_0: pl.Tensor[[128, 128], pl.FP32] = self.layer(w, c, 1)
        c_1: pl.Tensor[[128, 128], pl.FP32] = self.layer2(w, c_0, 1)
        return c_1
