# Writes a module whose while loop runs TRIP times over a body of at least
# N instructions (a chain of adds): gen_big_body.py TRIP N
import sys

trip, n = int(sys.argv[1]), int(sys.argv[2])
out = ["HloModule big", "", "%body (p: (s32[], f32[4])) -> (s32[], f32[4]) {",
       "  %p = (s32[], f32[4]) parameter(0)",
       "  %i = s32[] get-tuple-element(%p), index=0",
       "  %v0 = f32[4] get-tuple-element(%p), index=1"]
for k in range(1, n):
    out.append("  %%v%d = f32[4] add(%%v%d, %%v%d)" % (k, k - 1, k - 1))
out += ["  %one = s32[] constant(1)", "  %n = s32[] add(%i, %one)",
        "  ROOT %%t = (s32[], f32[4]) tuple(%%n, %%v%d)" % (n - 1), "}", "",
        "%cond (p: (s32[], f32[4])) -> pred[] {",
        "  %p = (s32[], f32[4]) parameter(0)",
        "  %i = s32[] get-tuple-element(%p), index=0",
        "  %%c = s32[] constant(%d)" % trip,
        "  ROOT %lt = pred[] compare(%i, %c), direction=LT", "}", "",
        "ENTRY %main (x: f32[4]) -> f32[4] {",
        "  %x = f32[4] parameter(0)", "  %z = s32[] constant(0)",
        "  %init = (s32[], f32[4]) tuple(%z, %x)",
        "  %loop = (s32[], f32[4]) while(%init), condition=%cond, body=%body",
        "  ROOT %out = f32[4] get-tuple-element(%loop), index=1", "}"]
print("\n".join(out))
