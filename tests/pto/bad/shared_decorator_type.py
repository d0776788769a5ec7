# The unknown function type is reported at the decorator that gives it,
# though identical text came first - as a statement annotation, and as a
# second decorator that decides no type - and its tree is shared
# (parse_shared): the message is at line 14, not 10 or 12.
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    @pl.function(type=pl.FunctionType.Grpah)
    def kern(a: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
        x: pl.function(type=pl.FunctionType.Grpah) = 1
        return a
    @pl.function(type=pl.FunctionType.Grpah)
    def layer(self, a: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:
        return a
