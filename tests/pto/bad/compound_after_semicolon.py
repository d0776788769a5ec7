# ARGS: --runtime=host_build_graph
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        x: pl.Scalar[pl.INDEX] = 1; for i in pl.range(4): pass
        return c
