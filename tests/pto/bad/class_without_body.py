# pypto.program: X
import pypto.language as pl

@pl.program
class P:
@pl.function(type=pl.FunctionType.Orchestration)
def f(self, t: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
    return t
