# pypto.program: DecoderLayer (hand-written example for pto-opt; printed in PyPTO's python_print style)
# Run: pto-opt --runtime=host_build_graph examples/pto/decoder_layer.py
#   Step A hoists `base` and `end` (derived from layer_idx) to the call site,
#   Step B hoists the per-layer weight view `wq_l` (its offset is `base`),
#   Step C hoists the intermediate `h` as an InOut parameter, and the tiled
#   projection loop keeps its views in the region: its offsets depend only on
#   a constant-trip loop variable, so they are replay-invariant.
import pypto.language as pl

@pl.program
class DecoderLayer:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def proj_incore(x__ssa_v0: pl.Tensor[[128, 128], pl.FP32], w__ssa_v0: pl.Tensor[[128, 128], pl.FP32], h__ssa_v0: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        t__ssa_v0: pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0], [128, 128], [128, 128], target_memory=pl.Mem.Vec)
        h__store: pl.Tensor[[128, 128], pl.FP32] = pl.tile.store(t__ssa_v0, [0, 0], h__ssa_v0)
        return h__ssa_v0
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def tile_incore(h__ssa_v0: pl.Tensor[[128, 128], pl.FP32], band__ssa_v0: pl.Tensor[[128, 128], pl.FP32], row__ssa_v0: pl.Scalar[pl.INDEX], out__ssa_v0: pl.InOut[pl.Tensor[[128, 512], pl.FP32]]) -> pl.Tensor[[128, 512], pl.FP32]:
        t__ssa_v0: pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec] = pl.tile.load(h__ssa_v0, [0, 0], [128, 128], [128, 128], target_memory=pl.Mem.Vec)
        out__store: pl.Tensor[[128, 512], pl.FP32] = pl.tile.store(t__ssa_v0, [0, row__ssa_v0], out__ssa_v0)
        return out__ssa_v0
    @pl.function(type=pl.FunctionType.Graph, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def layer(self, x__ssa_v0: pl.Tensor[[128, 128], pl.FP32], wq__ssa_v0: pl.Tensor[[4096, 128], pl.FP32], wo__ssa_v0: pl.Tensor[[512, 128], pl.FP32], out__ssa_v0: pl.InOut[pl.Tensor[[128, 512], pl.FP32]], layer_idx__ssa_v0: pl.Scalar[pl.INDEX]) -> pl.Tensor[[128, 512], pl.FP32]:
        base__ssa_v0: pl.Scalar[pl.INDEX] = layer_idx__ssa_v0 * 128
        wq_l__ssa_v0: pl.Tensor[[128, 128], pl.FP32] = pl.tensor.slice(wq__ssa_v0, [128, 128], [base__ssa_v0, 0])
        # noqa: F841
        h__ssa_v0: pl.Tensor[[128, 128], pl.FP32] = pl.tensor.create([128, 128], dtype=pl.FP32, layout=pl.TensorLayout.ND)
        h__ssa_v1: pl.Tensor[[128, 128], pl.FP32] = self.proj_incore(x__ssa_v0, wq_l__ssa_v0, h__ssa_v0)
        for i__idx_v0, (out__iter_v1,) in pl.range(4, init_values=(out__ssa_v0,)):
            row__ssa_v0: pl.Scalar[pl.INDEX] = i__idx_v0 * 128
            band__ssa_v0: pl.Tensor[[128, 128], pl.FP32] = pl.tensor.slice(wo__ssa_v0, [128, 128], [row__ssa_v0, 0])
            out__ssa_v2: pl.Tensor[[128, 512], pl.FP32] = self.tile_incore(h__ssa_v1, band__ssa_v0, row__ssa_v0, out__iter_v1)
            out__rv_v3: pl.Tensor[[128, 512], pl.FP32] = pl.yield_(out__ssa_v2)
        return out__ssa_v0
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, x__ssa_v0: pl.Tensor[[128, 128], pl.FP32], wq__ssa_v0: pl.Tensor[[4096, 128], pl.FP32], wo__ssa_v0: pl.Tensor[[512, 128], pl.FP32], out__ssa_v0: pl.InOut[pl.Tensor[[128, 512], pl.FP32]]) -> pl.Tensor[[128, 512], pl.FP32]:
        for l__idx_v0 in pl.range(32):
            self.layer(x__ssa_v0, wq__ssa_v0, wo__ssa_v0, out__ssa_v0, l__idx_v0)
        return out__ssa_v0
