/* Replica-group parser unit tests (hilo_replica_groups_parse, the one
 * reader of replica_groups= text): the list form, XLA's iota form with and
 * without a transpose (IotaReplicaGroupList semantics: iota reshaped to
 * the dims, transposed, read row-major in groups), the unexpanded iota
 * form the proto writer keeps, and malformed texts. */
#include "check.h"

/* The groups of text rendered as {{a,b},{c}}, or "ERR". */
static const char *render(hilo_arena *a, const char *text, bool expand, char *buf, size_t n)
{
	hilo_replica_groups g;
	if (!hilo_replica_groups_parse(a, text, strlen(text), expand, &g)) {
		snprintf(buf, n, "ERR");
		return buf;
	}
	size_t o = 0;
	o += (size_t)snprintf(buf + o, n - o, "{");
	for (int64_t k = 0; k < g.ngroups && g.start; k++) {
		o += (size_t)snprintf(buf + o, n - o, "%s{", k ? "," : "");
		for (int64_t j = g.start[k]; j < g.start[k + 1]; j++)
			o += (size_t)snprintf(buf + o, n - o, "%s%" PRId64, j > g.start[k] ? "," : "", g.ids[j]);
		o += (size_t)snprintf(buf + o, n - o, "}");
	}
	snprintf(buf + o, n - o, "}");
	hilo_replica_groups_free(a, &g);
	return buf;
}

#define GROUPS(text, want) do { \
		char b_[512]; \
		CHECK_STR(render(a, (text), true, b_, sizeof b_), (want)); \
	} while (0)

int main(void)
{
	hilo_arena *a = hilo_arena_create();
	/* list form */
	GROUPS("{{0,1},{2,3}}", "{{0,1},{2,3}}");
	GROUPS("{ {0, 1} ,\n\t{2,3} }", "{{0,1},{2,3}}");
	GROUPS("{}", "{}");
	GROUPS("{{}}", "{{}}");
	GROUPS("{{3,1,2},{0}}", "{{3,1,2},{0}}"); /* order kept, sizes may differ */
	/* iota form (XLA's IotaReplicaGroupList) */
	GROUPS("[2,4]<=[8]", "{{0,1,2,3},{4,5,6,7}}");
	GROUPS("[4,2]<=[8]", "{{0,1},{2,3},{4,5},{6,7}}");
	GROUPS("[2,4]<=[4,2]T(1,0)", "{{0,2,4,6},{1,3,5,7}}");
	GROUPS("[4,2]<=[2,4]T(1,0)", "{{0,4},{1,5},{2,6},{3,7}}");
	GROUPS("[1,8]<=[2,2,2]T(2,1,0)", "{{0,4,2,6,1,5,3,7}}");
	GROUPS("[2,2]<=[2,2]T(0,1)", "{{0,1},{2,3}}");
	GROUPS(" [2, 4] <= [8] ", "{{0,1,2,3},{4,5,6,7}}");
	GROUPS("[0,4]<=[0]", "{}");
	/* malformed */
	GROUPS("", "ERR");
	GROUPS("{{0,1},{2,3}", "ERR");
	GROUPS("{{0,1}{2,3}}", "ERR");
	GROUPS("{{0,1},}", "ERR");
	GROUPS("{{0,x}}", "ERR");
	GROUPS("{{0,1}} x", "ERR");
	GROUPS("{{99999999999999999999}}", "ERR");
	GROUPS("[2,4]<=[7]", "ERR");         /* G*S != devices */
	GROUPS("[2,4,1]<=[8]", "ERR");       /* not [G,S] */
	GROUPS("[2,4]<[8]", "ERR");
	GROUPS("[2,4]<=[4,2]T(0,0)", "ERR"); /* not a permutation */
	GROUPS("[2,4]<=[4,2]T(1,2)", "ERR");
	GROUPS("[2,4]<=[4,2]T(1)", "ERR");
	GROUPS("[2,4]<=[4,2]T", "ERR");
	GROUPS("[2,4]<=[]", "ERR");
	GROUPS("[-2,-4]<=[8]", "ERR");
	GROUPS("[1,2097152]<=[2097152]", "ERR"); /* expansion over the limit */

	/* unexpanded iota: the form as written, no ids */
	hilo_replica_groups g;
	const char *t = "[2,4]<=[4,2]T(1,0)";
	CHECK(hilo_replica_groups_parse(a, t, strlen(t), false, &g));
	CHECK(g.iota && g.transposed && !g.ids && !g.start);
	CHECK_EQ_I64(g.ngroups, 2);
	CHECK_EQ_I64(g.group_size, 4);
	CHECK_EQ_I64(g.ndims, 2);
	CHECK_EQ_I64(g.dims[0], 4);
	CHECK_EQ_I64(g.dims[1], 2);
	CHECK_EQ_I64(g.perm[0], 1);
	CHECK_EQ_I64(g.perm[1], 0);
	hilo_replica_groups_free(a, &g);
	t = "[1,2097152]<=[2097152]"; /* no limit when not expanded */
	CHECK(hilo_replica_groups_parse(a, t, strlen(t), false, &g));
	CHECK(g.iota && !g.transposed && g.perm[0] == 0);
	hilo_replica_groups_free(a, &g);
	/* the length bounds the text */
	t = "{{0,1}}garbage";
	CHECK(hilo_replica_groups_parse(a, t, 7, true, &g));
	CHECK_EQ_I64(g.ngroups, 1);
	CHECK_EQ_I64(g.nids, 2);
	CHECK(!g.iota);
	hilo_replica_groups_free(a, &g);
	hilo_arena_destroy(a);
	return CHECK_DONE();
}
