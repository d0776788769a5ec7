# ARGS: --runtime=host_build_graph
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.Graph, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def layer(self, a: pl.Tensor[[128, 128], pl.FP32]) -> pl.Tensor[[128, 128], pl.FP32]:
        x = ÿþgarbage
