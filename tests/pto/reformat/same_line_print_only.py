# pypto.program: same_line_print_only
# ARGS: --passes=
import pypto.language as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(a: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]: return a  # whole function on its def line
    @pl.function(type=pl.FunctionType.Orchestration)
    def f(self, a: pl.Tensor[[8], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[8], pl.FP32]:
        x: pl.Scalar[pl.INDEX] = n + 1; y: pl.Scalar[pl.INDEX] = x * 2;
        if y > 4: z: pl.Scalar[pl.INDEX] = pl.yield_(y)
        elif y > 2: z: pl.Scalar[pl.INDEX] = pl.yield_(x)  # elif
        else: z: pl.Scalar[pl.INDEX] = pl.yield_(n)
        with pl.scope(): a_1: pl.Tensor[[8], pl.FP32] = self.k(a); pass
        for j in pl.range(2): pass
        return a
