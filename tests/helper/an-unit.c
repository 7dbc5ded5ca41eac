/*
 * Unit tests of analysis/, run by tests/0004-analysis-unit.bats:
 *   an-unit GROUP   run one group of checks (split, deps, p2p, graph, latency, pathblame),
 *                   print failures, exit 1 if any
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/blame.h"
#include "../../analysis/graph.h"
#include "../../analysis/latency.h"
#include "../../analysis/mpi/coll.h"
#include "../../analysis/mpi/p2p.h"
#include "../../analysis/pathblame.h"
#include "../../libstream/error.h"
#include "check.h"

/* The split of a wait adds up exactly; the leftover goes to the largest. */
static void test_split(void)
{
	struct an_share shares[] = { { 10, 300, 0 }, { 11, 500, 0 } };
	struct an_share even[] = { { 1, 1, 0 }, { 2, 1, 0 }, { 3, 1, 0 } };
	struct an_share big[] = { { 1, (uint64_t)1 << 62, 0 }, { 2, (uint64_t)1 << 61, 0 } };
	struct an_interval iv = { shares, 2, 2, 800 };
	uint64_t out[3];

	an_blame_split(&iv, 700, out);
	CHECK(out[0] == 262 && out[1] == 438);
	iv = (struct an_interval){ even, 3, 3, 3 };
	an_blame_split(&iv, 100, out);
	CHECK(out[0] == 34 && out[1] == 33 && out[2] == 33);
	an_blame_split(&iv, 0, out);
	CHECK(out[0] == 0 && out[1] == 0 && out[2] == 0);
	/* no overflow where dur * share exceeds 64 bits */
	iv = (struct an_interval){ big, 2, 2, 3 * ((uint64_t)1 << 61) };
	an_blame_split(&iv, 3000000000000u, out);
	CHECK(out[0] == 2000000000000u && out[1] == 1000000000000u);
}

static struct an_coll_inst *inst_of(enum ls_role role, uint32_t root,
				    const int64_t *t, uint32_t n)
{
	struct an_coll_inst *inst = calloc(1, sizeof(*inst) + n * sizeof(inst->m[0]));

	inst->n = n;
	inst->role = (uint8_t)role;
	inst->root = root;
	for (uint32_t i = 0; i < n; i++)
		inst->m[i] = (struct an_coll_member){ 100 + i, 200 + i, t[i], i, true, UINT64_MAX, false, LS_NONE };
	return inst;
}

/* What each member of an instance waits for, by shape. */
static void test_deps(void)
{
	static const int64_t t[] = { 30, 10, 30, 20 };	/* latest: member 2 (tie, higher stream) */
	uint32_t dep[4];
	struct an_coll_inst *inst;

	inst = inst_of(LS_R_MPI_N2N, LS_NONE, t, 4);
	an_coll_deps(inst, dep);
	CHECK(dep[0] == 2 && dep[1] == 2 && dep[2] == 0 && dep[3] == 2);
	free(inst);
	inst = inst_of(LS_R_MPI_ONE2N, 3, t, 4);
	an_coll_deps(inst, dep);
	CHECK(dep[0] == 3 && dep[1] == 3 && dep[2] == 3 && dep[3] == LS_NONE);
	free(inst);
	inst = inst_of(LS_R_MPI_N2ONE, 2, t, 4);
	an_coll_deps(inst, dep);
	CHECK(dep[0] == LS_NONE && dep[1] == LS_NONE && dep[2] == 0 && dep[3] == LS_NONE);
	free(inst);
	inst = inst_of(LS_R_MPI_SCAN, LS_NONE, t, 4);
	an_coll_deps(inst, dep);
	CHECK(dep[0] == LS_NONE && dep[1] == 0 && dep[2] == 0 && dep[3] == 2);
	free(inst);
	/* a rooted shape with no root named: everyone waits for everyone */
	inst = inst_of(LS_R_MPI_ONE2N, LS_NONE, t, 4);
	an_coll_deps(inst, dep);
	CHECK(dep[0] == 2 && dep[2] == 0);
	free(inst);
}

/* Non-overtaking order per tag and comm; receives may come first. */
/*
 * A collective's shape and root do not depend on the order its members
 * are taken in (a shard takes another's members later than its own): the
 * shape of the least key's leave, the root of the greatest key's naming one.
 */
static void test_coll_order(void)
{
	struct ls_process procs[3] = { { .id = 0, .ranked = true }, { .id = 1, .ranked = true },
				       { .id = 2, .ranked = true } };
	struct ls_defs d = { .procs = procs, .nprocs = 3, .ranked = 3 };
	struct an_coll_member m = { 1, 2, 0, 0, false, UINT64_MAX, false, LS_NONE };
	struct an_coll_part part[3];
	struct an_coll_inst *done = NULL;
	struct an_coll c;

	an_coll_init(&c);
	for (uint32_t p = 0; p < 3; p++)
		CHECK(an_coll_part(&c, &d, LS_R_MPI_INIT, LS_NONE, p, &part[p]) == 1 && part[p].rank == p);
	/* taken in the order of keys 30, 20, 10 */
	CHECK(an_coll_leave(&c, &d, part[0], LS_R_MPI_N2N, LS_NONE, (struct an_coll_key){ 30, 0 }, &m, &done) == 0);
	CHECK(an_coll_leave(&c, &d, part[2], LS_R_MPI_ONE2N, 1, (struct an_coll_key){ 20, 2 }, &m, &done) == 0);
	CHECK(an_coll_leave(&c, &d, part[1], LS_R_MPI_ONE2N, 2, (struct an_coll_key){ 10, 1 }, &m, &done) == 1);
	CHECK(done && done->role == LS_R_MPI_ONE2N && done->mixed && done->root == 1);
	free(done);
	an_coll_release(&c);
}

static void test_p2p(void)
{
	struct an_p2p p;
	struct an_msg_end got;

	an_p2p_init(&p);
	CHECK(an_p2p_arrive(&p, AN_P2P_SEND, 0, 1, 0, 5, (struct an_msg_end){ 1, 10, false }, &got) == 0);
	CHECK(an_p2p_arrive(&p, AN_P2P_SEND, 0, 1, 0, 6, (struct an_msg_end){ 2, 11, false }, &got) == 0);
	CHECK(an_p2p_arrive(&p, AN_P2P_SEND, 0, 1, 0, 5, (struct an_msg_end){ 3, 12, false }, &got) == 0);
	CHECK(an_p2p_arrive(&p, AN_P2P_SEND, 0, 1, 1, 5, (struct an_msg_end){ 4, 13, false }, &got) == 0);
	/* tag 6 first: overtakes tag 5, which MPI allows */
	CHECK(an_p2p_arrive(&p, AN_P2P_RECV, 0, 1, 0, 6, (struct an_msg_end){ 5, 20, false }, &got) == 1 && got.ev == 2);
	CHECK(an_p2p_arrive(&p, AN_P2P_RECV, 0, 1, 0, 5, (struct an_msg_end){ 6, 21, false }, &got) == 1 && got.ev == 1);
	CHECK(an_p2p_arrive(&p, AN_P2P_RECV, 0, 1, 1, 5, (struct an_msg_end){ 7, 22, false }, &got) == 1 && got.ev == 4);
	CHECK(an_p2p_arrive(&p, AN_P2P_RECV, 0, 1, 0, 5, (struct an_msg_end){ 8, 23, false }, &got) == 1 && got.ev == 3);
	/* a receive before its send, and one from another sender */
	CHECK(an_p2p_arrive(&p, AN_P2P_RECV, 2, 1, 0, 5, (struct an_msg_end){ 9, 30, false }, &got) == 0);
	CHECK(an_p2p_arrive(&p, AN_P2P_SEND, 0, 1, 0, 5, (struct an_msg_end){ 10, 31, false }, &got) == 0);
	CHECK(an_p2p_arrive(&p, AN_P2P_SEND, 2, 1, 0, 5, (struct an_msg_end){ 11, 40, false }, &got) == 1 && got.ev == 9);
	CHECK(p.pending[AN_P2P_SEND] == 1 && p.pending[AN_P2P_RECV] == 0);
	an_p2p_release(&p);
}

/*
 * The event graph: nodes found by id, in a run of ids or not; each
 * stream's chain; a collection keeps what is marked and each stream's
 * last node, renumbers in order, and says what it dropped.
 */
static void test_graph(void)
{
	/* ids 10, 11, 12 run on; 40 breaks the run; 41 runs on from it */
	static const struct { uint64_t id; int64_t t; uint32_t s; } ev[] = {
		{ 10, 100, 0 }, { 11, 105, 1 }, { 12, 110, 0 }, { 40, 120, 1 }, { 41, 130, 0 },
	};
	struct an_graph g;
	uint32_t i, v[5] = { 0, 1, 2, 3, 4 };

	an_graph_init(&g);
	CHECK(an_graph_stream(&g) == 0 && an_graph_stream(&g) == 0);
	for (uint32_t k = 0; k < 5; k++)
		CHECK(an_graph_add(&g, ev[k].id, ev[k].t, ev[k].s, &i) == 0 && i == k);
	CHECK(g.n[2].prev == 0 && g.n[4].prev == 2 && g.n[3].prev == 1 && g.n[1].prev == LS_NONE);
	CHECK(g.last[0] == 4 && g.last[1] == 3);
	CHECK(g.first == 100 && g.now == 130 && g.added == 5);
	CHECK(an_graph_find(&g, 11, &i) && i == 1);
	CHECK(an_graph_find(&g, 41, &i) && i == 4);
	CHECK(!an_graph_find(&g, 13, &i) && !an_graph_find(&g, 39, &i));
	/* keep 11 only: the last nodes (40, 41) stay too; 10 and 12 go */
	CHECK(an_graph_unmark(&g) == 0);
	an_graph_keep(&g, 1);
	CHECK(an_graph_kept(&g, 1) && !an_graph_kept(&g, 0));
	CHECK(an_graph_collect(&g) == 0);
	CHECK(g.nn == 3 && g.n[0].id == 11 && g.n[1].id == 40 && g.n[2].id == 41);
	CHECK(an_graph_moved(&g, 0) == LS_NONE && an_graph_moved(&g, 1) == 0 &&
	      an_graph_moved(&g, 3) == 1 && an_graph_moved(&g, 4) == 2 &&
	      an_graph_moved(&g, LS_NONE) == LS_NONE);
	/* 41's stream predecessor 12 was dropped; 40's is 11, kept */
	CHECK(g.n[2].prev == LS_NONE && g.n[1].prev == 0);
	CHECK(g.last[0] == 2 && g.last[1] == 1);
	CHECK(g.dropped && g.dropped_t == 110);
	CHECK(an_graph_find(&g, 40, &i) && i == 1 && an_graph_find(&g, 11, &i) && i == 0);
	CHECK(!an_graph_find(&g, 10, &i) && !an_graph_find(&g, 12, &i));
	an_graph_move(&g, v, sizeof(v[0]));
	CHECK(v[0] == 1 && v[1] == 3 && v[2] == 4);
	/* a node added after it continues stream 1 */
	CHECK(an_graph_add(&g, 42, 140, 1, &i) == 0 && i == 3 && g.n[3].prev == 1);
	CHECK(an_graph_find(&g, 42, &i) && i == 3 && an_graph_find(&g, 41, &i) && i == 2);
	an_graph_release(&g);
}

/*
 * The least message latency shown: per pair of processes, half the least
 * span one way plus the least the other; the least over the pairs.
 */
static void test_latency(void)
{
	struct an_latency l = AN_LATENCY_INIT;
	int64_t ns = -1;
	uint32_t pairs = 9;

	CHECK(!an_latency_least(&l, &ns, &pairs) && pairs == 0);
	/* 0 -> 1 least 7, 1 -> 0 least -3 (1's clock behind by 5): (7 - 3) / 2 = 2 */
	CHECK(an_latency_see(&l, 0, 1, 10) == 0 && an_latency_see(&l, 0, 1, 7) == 0 &&
	      an_latency_see(&l, 1, 0, -3) == 0);
	/* 2 -> 3 only: no round trip */
	CHECK(an_latency_see(&l, 2, 3, 1) == 0);
	CHECK(an_latency_least(&l, &ns, &pairs) && ns == 2 && pairs == 1);
	/* 3 -> 2 least 9: (1 + 9) / 2 = 5; a process to itself, 4: 4 */
	CHECK(an_latency_see(&l, 3, 2, 9) == 0 && an_latency_see(&l, 4, 4, 4) == 0);
	CHECK(an_latency_least(&l, &ns, &pairs) && ns == 2 && pairs == 3);
	/* a lower span 1 -> 0 lowers the pair's half: (7 - 5) / 2 = 1 */
	CHECK(an_latency_see(&l, 1, 0, -5) == 0);
	CHECK(an_latency_least(&l, &ns, &pairs) && ns == 1 && pairs == 3);
	an_latency_release(&l);
}

/* An activity act of region 0 on stream 0, from t to t + len, whose path time is cp: its share known. */
static void on_path(struct an_pathblame *pb, const struct ls_defs *d, struct ls_writer *w, uint64_t act,
		    int64_t t, int64_t len, uint64_t cp)
{
	uint32_t entry;

	CHECK(an_pathblame_enter(pb, act, 0, 0, t, &entry) == 0);
	CHECK(an_pathblame_leave(pb, entry, LS_NONE, t + len) == 0);
	an_pathblame_path(pb, act, entry, cp);
	CHECK(an_pathblame_settle(pb, t + len, d, w) == 0);
}

/*
 * Blame on the path: an activity's blame times its time on the path over
 * its exclusive time, the same whether its blame comes before its share is
 * known or after; what comes for a share let go of is counted, not guessed.
 */
static void test_pathblame(void)
{
	struct ls_stream stream = { .id = 7 };
	uint64_t region_id = 3;
	struct ls_defs d = { .streams = &stream, .region_ids = &region_id, .nstreams = 1, .nregions = 1 };
	struct an_pathblame pb;
	struct an_typed_list typed = { 0 };
	struct ls_writer w;
	uint32_t a, child;

	ls_writer_init_memory(&w);
	an_pathblame_init(&pb, &typed);
	/* A (1): 0..1000, a child (2) 300..600: 700 ns exclusive, 400 of them on the path */
	CHECK(an_pathblame_enter(&pb, 1, 0, 0, 0, &a) == 0 && an_pathblame_enter(&pb, 2, 0, 0, 300, &child) == 0);
	CHECK(an_pathblame_leave(&pb, child, a, 600) == 0 && an_pathblame_leave(&pb, a, LS_NONE, 1000) == 0);
	CHECK(an_pathblame_blame(&pb, 1, a, 300, false, &d, &w) == 0);
	/* the caller lets go of A's hint: A is found by its id */
	CHECK(an_pathblame_adrift(&pb, 1, a) == 0 && pb.adrift.count == 1);
	an_pathblame_path(&pb, 1, LS_NONE, 400);
	/* the path written up to 999: A's share is not known yet */
	CHECK(an_pathblame_settle(&pb, 999, &d, &w) == 0 && pb.written == 0);
	/* up to 1000: 300 * 400 / 700 = 171.4 */
	CHECK(an_pathblame_settle(&pb, 1000, &d, &w) == 0 && pb.written == 171 && pb.adrift.count == 0);
	/* the record written, noted typed: A's share, its region and stream as indexes */
	CHECK(typed.n == 1 && typed.v[0].at == 0 && typed.v[0].len == w.out.len &&
	      typed.v[0].kind == LS_K_PATH_BLAME && typed.v[0].derived.share.act == 1 &&
	      typed.v[0].derived.share.ns == 171 && typed.v[0].derived.share.r == 0 &&
	      typed.v[0].derived.share.s == 0 && !typed.v[0].derived.share.idle);
	/* 600 more after: 900 * 400 / 700 = 514.3, so 343 more; as if it had all come before */
	CHECK(an_pathblame_blame(&pb, 1, LS_NONE, 600, false, &d, &w) == 0 && pb.written == 514);
	/* idle blame apart, with its own floor: 10 * 400 / 700 = 5.7 */
	CHECK(an_pathblame_blame(&pb, 1, LS_NONE, 10, true, &d, &w) == 0 && pb.written == 519);
	/* the child had no time on the path: its blame, before or after, none */
	CHECK(an_pathblame_blame(&pb, 2, LS_NONE, 50, false, &d, &w) == 0 && pb.written == 519 && pb.unknown == 0);
	/* more on the path than its exclusive time (a transit past a child's enter): all of it */
	on_path(&pb, &d, &w, 5, 2000, 100, 150);
	CHECK(an_pathblame_blame(&pb, 5, LS_NONE, 80, false, &d, &w) == 0 && pb.written == 599);
	/* a zero-length activity has no share */
	on_path(&pb, &d, &w, 6, 2200, 0, 0);
	CHECK(an_pathblame_blame(&pb, 6, LS_NONE, 80, false, &d, &w) == 0 && pb.written == 599);
	/* AN_PB_KNOWN activities later on the path: A's share (the oldest) is let go of */
	for (uint64_t k = 0; k < AN_PB_KNOWN - 1; k++)
		on_path(&pb, &d, &w, 10 + k, 3000 + 10 * (int64_t)k, 10, 10);
	CHECK(an_pathblame_blame(&pb, 5, LS_NONE, 1, false, &d, &w) == 0 && pb.written == 600);
	CHECK(an_pathblame_blame(&pb, 1, LS_NONE, 70, false, &d, &w) == 0 && pb.written == 600 && pb.unknown == 70);
	/* an activity after every one let go of, never followed, is not on the path */
	CHECK(an_pathblame_blame(&pb, UINT64_C(1) << 40, LS_NONE, 9, false, &d, &w) == 0 && pb.unknown == 70);
	CHECK(pb.ne <= 2);	/* the entries of activities settled are reused */
	an_pathblame_release(&pb);
	free(typed.v);
	ls_writer_release(&w);
}

int main(int argc, char **argv)
{
	static const struct { const char *name; void (*run)(void); } groups[] = {
		{ "split", test_split },
		{ "deps", test_deps }, { "coll-order", test_coll_order }, { "p2p", test_p2p }, { "graph", test_graph },
		{ "latency", test_latency }, { "pathblame", test_pathblame },
	};

	for (size_t i = 0; argc == 2 && i < sizeof(groups) / sizeof(groups[0]); i++) {
		if (strcmp(argv[1], groups[i].name) == 0) {
			groups[i].run();
			return failures != 0;
		}
	}
	fprintf(stderr, "usage: an-unit split|deps|coll-order|p2p|graph|latency|pathblame\n");
	return 2;
}
