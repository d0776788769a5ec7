# pypto.program: verify_binding_reads_graph_local
# ARGS: --runtime=host_build_graph --passes=verify-graph-boundary
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def kern(x: pl.Tensor[[128, 128], pl.FP32], off: pl.Scalar[pl.INDEX], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        t: pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [off, 0], [128, 128], [128, 128], target_memory=pl.Mem.Vec)
        c_1: pl.Tensor[[128, 128], pl.FP32] = pl.tile.store(t, [0, 0], c)
        return c
    @pl.function(type=pl.FunctionType.Graph, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def layer(self, w: pl.Tensor[[4096, 128], pl.FP32], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]], n: pl.Scalar[pl.INDEX], s: pl.InOut[pl.Tensor[[m, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        m: pl.Scalar[pl.INDEX] = pl.tensor.read(w, [0, 0])
        c_1: pl.Tensor[[128, 128], pl.FP32] = self.kern(s, n, c)
        return c
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, w: pl.Tensor[[4096, 128], pl.FP32], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        s__graph_arg0: pl.Tensor[[m, 128], pl.FP32] = pl.tensor.create([m, 128], dtype=pl.FP32, layout=pl.TensorLayout.ND)
        c_1: pl.Tensor[[128, 128], pl.FP32] = self.layer(w, c, 2, s__graph_arg0)
        return c
