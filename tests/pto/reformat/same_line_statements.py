# pypto.program: same_line_statements
# Python's one-line forms: `;` between simple statements, a compound
# statement's body on its header line. Legalized, each statement prints
# on a line of its own.
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kern(a: pl.Tensor[[512, 128], pl.FP32], off: pl.Scalar[pl.INDEX], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        t: pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [off, 0], [128, 128], [128, 128], target_memory=pl.Mem.Vec); c_1: pl.Tensor[[128, 128], pl.FP32] = pl.tile.store(t, [0, 0], c)  # two on a line
        return c;
    @pl.function(type=pl.FunctionType.Graph, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def layer(self, w: pl.Tensor[[512, 128], pl.FP32], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[128, 128], pl.FP32]:
        b: pl.Scalar[pl.INDEX] = n * 128; v: pl.Tensor[[128, 128], pl.FP32] = pl.tensor.slice(w, [128, 128], [b, 0])
        for i in pl.range(4): c_1: pl.Tensor[[128, 128], pl.FP32] = self.kern(v, i * 32, c); c_2: pl.Tensor[[128, 128], pl.FP32] = self.kern(w, b, c)  # body
        return c
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, w: pl.Tensor[[512, 128], pl.FP32], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        c_2: pl.Tensor[[128, 128], pl.FP32] = self.layer(w, c, 3); return c
