# ARGS: --passes=
# pypto.program: X
import pypto.language as pl
