# ARGS: --runtime=host_build_graph
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.Graph, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    x = 1
