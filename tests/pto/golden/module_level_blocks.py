# pypto.program: ModuleBlocks
# Module-level code outside the class keeps Python's block structure: an
# `if` with an indented body, a `try` with handlers, a class body - each
# header followed by a deeper line (pto-opt checks this outside functions
# too, as Python does, and prints it back as written).
import pypto.language as pl

if True:
    N = 4
else:
    N = 8
try:
    import numpy
except ImportError:
    numpy = None

@pl.program
class ModuleBlocks:
    @pl.function(type=pl.FunctionType.Orchestration)
    def f(self, t: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
        return t

if __name__ == "__main__":
    print(ModuleBlocks)
