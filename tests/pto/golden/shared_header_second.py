# pypto.program: shared_header_second
# The error is in the second of two functions with the same parameter
# annotation text (whose tree the parser shares, carrying the first one's
# source positions): the message must point at the second function's
# parameter, line 16, not at the first's.
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def tk(x: pl.Tensor[[128, 128], pl.FP32], n: pl.InOut[pl.Scalar[pl.INDEX]], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        t: pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [128, 128], [128, 128], target_memory=pl.Mem.Vec)
        c_1: pl.Tensor[[128, 128], pl.FP32] = pl.tile.store(t, [0, 0], c)
        return c
    @pl.function(type=pl.FunctionType.Graph, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def layer(self, a: pl.Tensor[[128, 128], pl.FP32], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]], n: pl.InOut[pl.Scalar[pl.INDEX]]) -> pl.Tensor[[128, 128], pl.FP32]:
        c_1: pl.Tensor[[128, 128], pl.FP32] = self.tk(a, n, c)
        return c_1
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[128, 128], pl.FP32], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        c_1: pl.Tensor[[128, 128], pl.FP32] = self.layer(a, c, 1)
        return c_1
