# pypto.program: X
import pypto.language as pl

N = 4
    M = 8

@pl.program
class P:
    pass
