HloModule add_params

ENTRY main {
  p = f32[2] parameter(0)
  q = s32[] parameter(1)
  a = f32[2] add(p, p)
  ROOT t = (f32[2], s32[]) tuple(a, q)
}
