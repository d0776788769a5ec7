# pypto.program: shared_annotation_default
# A parse error right after a parameter annotation whose text (and tree)
# the first function has: located in the second function, line 12.
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def tk(x: pl.Tensor[[128, 128], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[128, 128], pl.FP32]:
        return x
    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)
    def tk2(x: pl.Tensor[[128, 128], pl.FP32], n: pl.Scalar[pl.INDEX] = 3) -> pl.Tensor[[128, 128], pl.FP32]:
        return x
