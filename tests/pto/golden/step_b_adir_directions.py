# pypto.program: step_b_adir_directions
import pypto.language as pl
# PyPTO spells a call's directions pl.adir.input/inout/scalar (python_print; its parser
# accepts nothing else): the hoisted arguments' directions are appended in that spelling

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
    def layer(self, w: pl.Tensor[[512, 128], pl.FP32], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]], idx: pl.Scalar[pl.INDEX]) -> pl.Tensor[[128, 128], pl.FP32]:
        base: pl.Scalar[pl.INDEX] = idx * 128
        alias: pl.Tensor[[512, 128], pl.FP32] = w
        wl: pl.Tensor[[256, 128], pl.FP32] = pl.tensor.slice(alias, [256, 128], [base, 0])
        wr: pl.Tensor[[128, 128], pl.FP32] = pl.tensor.slice(wl, [128, 128], [base, 0])
        c_1: pl.Tensor[[128, 128], pl.FP32] = self.tk(wr, c)
        return c
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, w: pl.Tensor[[512, 128], pl.FP32], c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]) -> pl.Tensor[[128, 128], pl.FP32]:
        for i in pl.range(2):
            c_2: pl.Tensor[[128, 128], pl.FP32] = self.layer(w, c, (i + 1) * 2, attrs={"arg_directions": [pl.adir.input, pl.adir.inout, pl.adir.scalar]})
        return c
