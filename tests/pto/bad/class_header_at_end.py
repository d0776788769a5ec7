# pypto.program: X
import pypto.language as pl

@pl.program
class P:
