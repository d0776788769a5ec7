"""tests/xla/models/programs.py: the small real JAX programs of the models
sub-tier, each written the way a model author writes it, so that the HLO
JAX lowers them to carries the patterns hilo's passes exist for:

  decoder    a decoder layer stack under lax.scan over stacked weights,
             the KV cache of each layer written by dynamic-update-slice
             (the while / dynamic-slice shape the unroller, the index
             simplifier and the dynamic-slice mover target)
  attention  a fused QKV projection (concatenate) split back into q, k, v
             and heads by slices, heads concatenated back in two groups
             (slice-of-concat, simplify-concat's nested concatenates)
  allgather  jax.shard_map on 8 host devices that all-gathers the same
             shard twice (the duplicate all-gathers remover)
  moe        top-1 routed mixture of experts: tokens gathered per expert,
             expert outputs written slab by slab into one buffer with
             dynamic-update-slice, combined back by scatter-add
  convnet    a small convolution network: two branches concatenated on the
             channel axis and split again for a residual, a repeated block
             under lax.fori_loop over stacked kernels

Each entry of PROGRAMS says which passes must rewrite something in one of
the flows (expect): a model on which no pass fires tests nothing.

Importing this module imports jax; it runs in the XLA worker processes
(xlalib.Xla), never in the tier's driver.
"""

import numpy as np


def _jax():
    import jax
    import jax.numpy as jnp
    from jax import lax
    return jax, jnp, lax


def decoder(unrolled=False):
    jax, jnp, lax = _jax()
    L, T, D, S = 3, 4, 16, 8

    def f(x, wq, wk, wv, wo, kcache, vcache, pos):
        def layer(h, w):
            wq, wk, wv, wo, kc, vc = w
            q, k, v = h @ wq, h @ wk, h @ wv
            kc = lax.dynamic_update_slice(kc, k, (pos, jnp.int32(0)))
            vc = lax.dynamic_update_slice(vc, v, (pos, jnp.int32(0)))
            att = jax.nn.softmax(q @ kc.T / 4.0, axis=-1)
            return h + (att @ vc) @ wo, (kc, vc)
        ws = (wq, wk, wv, wo, kcache, vcache)
        if unrolled:                         # the twin: the scan written out by hand
            kvs = []
            for i in range(L):
                x, kv = layer(x, tuple(w[i] for w in ws))
                kvs.append(kv)
            return x, jnp.stack([k for k, _ in kvs]), jnp.stack([v for _, v in kvs])
        h, (kc, vc) = lax.scan(layer, x, ws)
        return h, kc, vc

    f32 = jnp.float32
    args = ([((T, D), f32)] + [((L, D, D), f32)] * 4 + [((L, S, D), f32)] * 2
            + [((), jnp.int32)])
    return f, args


def attention():
    jax, jnp, lax = _jax()
    T, D, H = 8, 32, 4
    dh = D // H

    @jax.jit
    def qkv_proj(x, wq, wk, wv):            # one fused projection for q, k and v
        return jnp.concatenate([x @ wq, x @ wk, x @ wv], axis=-1)

    @jax.jit
    def merge(*heads):
        return jnp.concatenate(heads, axis=1)

    def f(x, wq, wk, wv, wo):
        qkv = qkv_proj(x, wq, wk, wv)
        q, k = qkv[:, :D], qkv[:, D:2 * D]
        v = lax.dynamic_slice_in_dim(qkv, 2 * D, D, axis=1)
        heads = []
        for i in range(H):
            qi, ki, vi = (t[:, i * dh:(i + 1) * dh] for t in (q, k, v))
            heads.append(jax.nn.softmax(qi @ ki.T, axis=-1) @ vi)
        half = H // 2
        out = jnp.concatenate([merge(*heads[:half]), merge(*heads[half:])], axis=1)
        return out @ wo

    f32 = jnp.float32
    return f, [((T, D), f32)] + [((D, D), f32)] * 4


ALLGATHER_DEVICES = 8


def allgather():
    jax, jnp, lax = _jax()
    from jax.sharding import PartitionSpec as P
    mesh = jax.make_mesh((ALLGATHER_DEVICES,), ("x",))

    def shard(x, w):
        a = lax.all_gather(x, "x", axis=0, tiled=True)     # the activations, gathered
        b = lax.all_gather(x, "x", axis=0, tiled=True)     # the same gather again (a residual path)
        return (a @ w) + jnp.tanh(b)

    f = jax.shard_map(shard, mesh=mesh, in_specs=(P("x"), P()), out_specs=P("x"))
    f32 = jnp.float32
    s = jax.sharding.NamedSharding
    return f, [((ALLGATHER_DEVICES * 2, 4), f32, s(mesh, P("x"))), ((4, 4), f32, s(mesh, P()))]


def moe():
    jax, jnp, lax = _jax()
    T, D, E, C = 16, 8, 4, 4       # tokens, width, experts, capacity per expert

    def f(x, router, w1, w2):
        logits = x @ router
        expert = jnp.argmax(logits, axis=-1)
        gate = jax.nn.softmax(logits, axis=-1).max(axis=-1)
        # slot of each token in its expert's queue; tokens past capacity drop
        onehot = jax.nn.one_hot(expert, E, dtype=jnp.int32)
        slot = (jnp.cumsum(onehot, axis=0) * onehot).sum(axis=-1) - 1
        dest = jnp.where(slot < C, expert * C + slot, E * C)         # E*C: dropped
        idx = jnp.full((E * C,), T, jnp.int32).at[dest].set(jnp.arange(T, dtype=jnp.int32), mode="drop")
        xp = jnp.concatenate([x, jnp.zeros((1, D), x.dtype)])        # row T: padding
        dispatched = xp[idx]                                         # gather [E*C, D]
        out = jnp.zeros((E * C, D), x.dtype)
        for e in range(E):                                           # expert FFNs, slab by slab
            h = jax.nn.relu(dispatched[e * C:(e + 1) * C] @ w1[e]) @ w2[e]
            out = lax.dynamic_update_slice(out, h, (e * C, 0))
        y = jnp.zeros((T + 1, D), x.dtype).at[idx].add(out)          # scatter back
        return y[:T] * gate[:, None]

    f32 = jnp.float32
    return f, [((T, D), f32), ((D, E), f32), ((E, D, 2 * D), f32), ((E, 2 * D, D), f32)]


def convnet(unrolled=False):
    jax, jnp, lax = _jax()
    N, HW, C, K = 2, 8, 4, 3

    def conv(x, w):
        return lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))

    @jax.jit
    def branches(x, wa, wb):                 # two branches, concatenated on channels
        return jnp.concatenate([jax.nn.relu(conv(x, wa)), jax.nn.relu(conv(x, wb))], axis=-1)

    def f(x, wa, wb, blocks):
        left, right = jnp.split(branches(x, wa, wb), 2, axis=-1)
        h = left + right

        def block(i, h):
            return h + jax.nn.relu(conv(h, lax.dynamic_index_in_dim(blocks, i, keepdims=False)))
        if unrolled:                         # the twin: the loop written out by hand
            for i in range(blocks.shape[0]):
                h = block(i, h)
        else:
            h = lax.fori_loop(0, blocks.shape[0], block, h)
        return h.mean(axis=(1, 2))

    f32 = jnp.float32
    return f, [((N, HW, HW, C), f32), ((K, K, C, C), f32), ((K, K, C, C), f32),
               ((2, K, K, C, C), f32)]


class Program:
    """build(unrolled=False) -> (f, [(shape, dtype[, sharding])]); devices;
    expect: the passes that must rewrite in some flow; twin: build(True)
    exists, the same program with its loop written out by hand in JAX (to
    tell XLA's own loop-versus-unrolled differences from hilo's)."""

    def __init__(self, build, devices, expect, twin=False):
        self.build, self.devices, self.expect, self.twin = build, devices, expect, twin


PROGRAMS = {
    "decoder": Program(decoder, 1, ["while-loop-unroller", "neuron-dus-ds-index-simplifier",
                                    "dynamic-slice-mover"], twin=True),
    "attention": Program(attention, 1, ["slice-of-concat-optimizer", "simplify-concat"]),
    "allgather": Program(allgather, ALLGATHER_DEVICES, ["neuron_all_gather_duplicate_remover"]),
    "moe": Program(moe, 1, ["neuron_repeated_dus_to_concat", "simplify-concat",
                            "neuron-dus-ds-index-simplifier"]),
    "convnet": Program(convnet, 1, ["slice-of-concat-optimizer", "while-loop-unroller",
                                    "neuron-dus-ds-index-simplifier", "dynamic-slice-mover"],
                       twin=True),
}


def _specs(args):
    """ShapeDtypeStructs of (shape, dtype[, sharding]) entries."""
    import jax
    return [jax.ShapeDtypeStruct(a[0], a[1], sharding=a[2] if len(a) > 2 else None) for a in args]


def lower(name, twin=False):
    """Lower program `name` (its twin): {"pre_text", "pre_proto",
    "post_text", "post_proto"}, before and after XLA's optimizations."""
    f, args = PROGRAMS[name].build(twin) if twin else PROGRAMS[name].build()
    import jax
    lowered = jax.jit(f).lower(*_specs(args))
    compiled = lowered.compile()
    post = compiled.runtime_executable().hlo_modules()[0]
    return {
        "pre_text": lowered.as_text(dialect="hlo"),
        "pre_proto": lowered.compiler_ir("hlo").as_serialized_hlo_module_proto(),
        "post_text": compiled.as_text(),
        "post_proto": post.as_serialized_hlo_module_proto(),
    }
