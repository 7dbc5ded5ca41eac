/*
 * The timeline of an analysed stream as a self-contained SVG (tr-svg's
 * picture, and tr-report's): a lane per stream grouped by process (per
 * process from COLLAPSE processes on), activities coloured by role, wait
 * states hatched over them, the critical path in a strip of its own under
 * each lane's activities (so that it hides none of them however often it
 * changes streams) with lines where it steps from stream to stream, a
 * time axis in seconds, a legend. Activities narrower than half a pixel
 * become a density band of their lane; path pieces closer than a pixel
 * to the one before on their lane join it.
 *
 * For tr-report (zoomable) the items drawn are also kept for the page's
 * script, which redraws the picture for each window it is zoomed to
 * (timeline-data.h, timeline-zoom.c).
 *
 * Three passes: definitions and the run's span; activities and waits;
 * the path, so that it is drawn over everything.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../libstream/error.h"
#include "../../libstream/reader.h"
#include "../../libstream/times.h"
#include "json-text.h"
#include "names.h"
#include "timeline-data.h"
#include "timeline.h"
#include "../common/tool.h"
#include "xml.h"

/* From this many processes on, a lane per process. */
#define COLLAPSE 64
#define LABEL_W 200.0	/* the lanes' names */
#define ACT_H 12.0	/* a lane's activities */
#define PATH_H 4.0	/* its strip of the critical path, under them */
#define LANE_H (ACT_H + PATH_H)
#define GAP_H 6.0	/* between processes */
#define AXIS_H 30.0
#define ITEM_W 130.0	/* a legend item */
#define MAX_DEPTH 64

/* The colour classes of activities, by role. */
enum paint { P_USER, P_MPI, P_KERNEL, P_COPY, P_SYNC, P_GPU_CALL, P_OMP, P__COUNT };

static const struct {
	const char *cls, *fill, *what;
} paints[P__COUNT] = {
	[P_USER] = { "user", "#9e9e9e", "user code" },
	[P_MPI] = { "mpi", "#e53935", "MPI" },
	[P_KERNEL] = { "kernel", "#43a047", "GPU kernel" },
	[P_COPY] = { "copy", "#1e88e5", "memcpy, memset" },
	[P_SYNC] = { "sync", "#fb8c00", "GPU synchronization" },
	[P_GPU_CALL] = { "gpucall", "#8e24aa", "other GPU calls" },
	[P_OMP] = { "omp", "#fdd835", "OpenMP" },
};

static enum paint paint_of(const char *role)
{
	enum ls_role r = ls_role_lookup(role, (uint32_t)strlen(role));

	switch (r) {
	case LS_R_KERNEL:
		return P_KERNEL;
	case LS_R_MEMCPY: case LS_R_MEMCPY_ASYNC: case LS_R_MEMSET: case LS_R_MEMSET_ASYNC:
	case LS_R_DEV_MEMCPY: case LS_R_DEV_MEMSET: case LS_R_DEV_MIGRATE:
		return P_COPY;
	case LS_R_STREAM_SYNC: case LS_R_CTX_SYNC: case LS_R_EVENT_SYNC: case LS_R_EVENT_QUERY:
	case LS_R_STREAM_QUERY: case LS_R_STREAM_WAIT:
		return P_SYNC;
	default:
		break;
	}
	switch (ls_role_group(r)) {
	case LS_G_MPI:
		return P_MPI;
	case LS_G_GPU_CALL:
	case LS_G_GPU_WORK:
		return P_GPU_CALL;
	case LS_G_OMP:
		return P_OMP;
	default:
		return P_USER;
	}
}

/* An activity open on a stream: since when it is the innermost (its drawn part's start). */
struct open {
	int64_t since;
	uint64_t r;
};

struct lane_state {
	struct open stack[MAX_DEPTH];
	uint32_t depth;		/* open, also past MAX_DEPTH */
	bool named;		/* its label written */
	double *cover;		/* ns of short activities per pixel column */
	/* its path pieces not drawn yet: one rect from x0 to x1 of ns */
	bool pending;
	double x0, x1;
	uint64_t ns;
};

struct svg {
	struct names procs, streams, regions;
	bool any, window;
	int64_t first, last;	/* the run's span; the window drawn */
	int64_t from, to;
	double width, scale;	/* px per ns */
	bool collapse;
	uint8_t *paint;		/* region index -> enum paint, from its role once */
	uint32_t *lane_of;	/* stream index -> lane */
	double *lane_y;		/* lane -> its top */
	uint32_t nlanes;
	struct lane_state *lanes;
	double height, legend_h;
	bool inline_svg;	/* inside an HTML page: no XML declaration */
	/* the path: the last piece's lane and end, for the steps between lanes */
	bool have_piece;
	uint32_t piece_lane;
	double run_x, piece_x;	/* where the path came to piece_lane, where its last piece ends */
	double hop_x;		/* where the last step was drawn */
	bool zoomable;		/* keep the items for the page's script */
	struct tl_data data;
};

/* b - a for a <= b, whatever they are (in uint64_t no difference overflows). */
static double span_ns(int64_t a, int64_t b)
{
	return (double)ls_span(a, b);
}

/* Where something of dur from t ends, held to the times a stream holds (a broken stream's may not fit). */
static int64_t end_of(int64_t t, uint64_t dur)
{
	return ls_time_plus_held(t, (int64_t)(dur > LS_DUR_MAX ? LS_DUR_MAX : dur));
}

static double x_of(const struct svg *g, int64_t t)
{
	int64_t c = t < g->from ? g->from : t > g->to ? g->to : t;

	return LABEL_W + span_ns(g->from, c) * g->scale;
}

static void name_text(const struct named *d, const char *what, uint64_t id)
{
	if (d && d->name)
		xml_text(d->name);
	else
		printf("%s %" PRIu64, what, id);
}

/* Pass 1: definitions and the run's span. 0 or LS_ERR_NOMEM. */
static int learn(struct svg *g, const struct ls_record *rec)
{
	int64_t t;

	switch (rec->kind) {
	case LS_K_PROCESS:
		return names_keep(&g->procs, rec);
	case LS_K_STREAM:
		return names_keep(&g->streams, rec);
	case LS_K_REGION:
		return names_keep(&g->regions, rec);
	case LS_K_ENTER:
	case LS_K_LEAVE:
		if (ls_get_i64(rec, LS_F_T, &t) == 0) {
			if (!g->any || t < g->first)
				g->first = t;
			if (!g->any || t > g->last)
				g->last = t;
			g->any = true;
		}
		return 0;
	default:
		return 0;
	}
}

/* Lanes in the order of processes, each's streams in theirs; the picture's size. */
static int lay_out(struct svg *g)
{
	double y = AXIS_H;
	uint32_t lane = 0;

	g->collapse = g->procs.n >= COLLAPSE;
	if (!(g->paint = malloc(g->regions.n + 1)))
		return LS_ERR_NOMEM;
	for (uint32_t i = 0; i < g->regions.n; i++)
		g->paint[i] = (uint8_t)paint_of(g->regions.v[i].role);
	if (!(g->lane_of = calloc(g->streams.n + 1, sizeof(*g->lane_of))) ||
	    !(g->lane_y = calloc(g->streams.n + g->procs.n + 1, sizeof(*g->lane_y))) ||
	    !(g->lanes = calloc(g->streams.n + g->procs.n + 1, sizeof(*g->lanes))))
		return LS_ERR_NOMEM;
	for (uint32_t s = 0; s < g->streams.n; s++)
		g->lane_of[s] = UINT32_MAX;
	for (uint32_t p = 0; p < g->procs.n; p++) {
		bool any = false;

		for (uint32_t s = 0; s < g->streams.n; s++) {
			if (g->streams.v[s].process != g->procs.v[p].id || g->streams.v[s].metric)
				continue;
			if (!g->collapse || !any) {
				g->lane_y[lane] = y;
				y += LANE_H;
				lane++;
			}
			g->lane_of[s] = lane - 1;
			any = true;
		}
		if (any)
			y += GAP_H;
	}
	g->nlanes = lane;
	for (uint32_t l = 0; l < g->nlanes; l++)
		if (!(g->lanes[l].cover = calloc((size_t)g->width + 1, sizeof(double))))
			return LS_ERR_NOMEM;
	/* the colours in rows as wide as the picture, then the marks' row */
	g->legend_h = 16 * (ceil(P__COUNT / floor((g->width - 20) / ITEM_W)) + 1) + 8;
	g->height = y + g->legend_h;
	return 0;
}

/* A step of the time axis: 1, 2 or 5 times a power of ten, a tick every 100 px or more. */
static double tick_step(double span_s, double plot_w)
{
	double raw = span_s / fmax(1, floor(plot_w / 100)), p = pow(10, floor(log10(raw)));

	return raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
}

static void head(struct svg *g)
{
	double span = span_ns(g->from, g->to) / 1e9, step = span > 0 ? tick_step(span, g->width - LABEL_W) : 1;

	if (!g->inline_svg)
		printf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	printf("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
	       "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"10\">\n",
	       g->width, g->height, g->width, g->height);
	printf("<defs><pattern id=\"hatch\" width=\"4\" height=\"4\" patternUnits=\"userSpaceOnUse\" "
	       "patternTransform=\"rotate(45)\"><rect width=\"2\" height=\"4\" fill=\"#000\" "
	       "fill-opacity=\"0.45\"/></pattern></defs>\n");
	printf("<style>");
	for (int p = 0; p < P__COUNT; p++)
		printf(".%s{fill:%s}", paints[p].cls, paints[p].fill);
	printf(".wait{fill:url(#hatch)}.dense{fill:#555}.crit{fill:#c00}"
	       ".hop{stroke:#c00;stroke-width:0.75;stroke-opacity:0.7}.bg{fill:#f4f4f4}.strip{fill:#fbe9e7}</style>\n");
	printf("<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n<g class=\"axis\" id=\"tl-axis\">");
	for (double s = 0; step > 0 && s <= span * (1 + 1e-9); s += step) {
		double x = LABEL_W + s * 1e9 * g->scale;

		printf("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ccc\"/>"
		       "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.6g s</text>", x, AXIS_H - 8, x,
		       g->height - g->legend_h, x, AXIS_H - 12, span_ns(g->first, g->from) / 1e9 + s);
	}
	printf("</g>\n");
	/* the lanes, each named by its process and stream (or process), once */
	for (uint32_t s = 0; s < g->streams.n; s++) {
		const struct named *st = &g->streams.v[s];
		uint32_t lane = g->lane_of[s];

		if (lane == UINT32_MAX || g->lanes[lane].named)
			continue;
		g->lanes[lane].named = true;
		printf("<g class=\"lane\" data-stream=\"%" PRIu64 "\"><rect class=\"bg\" x=\"%.0f\" y=\"%.1f\" "
		       "width=\"%.0f\" height=\"%.1f\"/><text x=\"4\" y=\"%.1f\">", st->id, LABEL_W,
		       g->lane_y[lane], g->width - LABEL_W, LANE_H - 1, g->lane_y[lane] + ACT_H - 3);
		name_text(names_get(&g->procs, st->process), "process", st->process);
		if (!g->collapse) {
			fputs(": ", stdout);
			name_text(st, "stream", st->id);
		}
		printf("</text></g>\n");
	}
}

/*
 * The part of an activity of region r at depth d on lane l from a to b
 * where it was the innermost: drawn, or too short, as coverage.
 */
static void activity(struct svg *g, uint32_t l, int64_t a, int64_t b, uint32_t d, uint64_t r)
{
	uint32_t ri = names_index(&g->regions, r);
	const struct named *reg = ri == UINT32_MAX ? NULL : &g->regions.v[ri];
	/* nested activities inset 1.5 each level, at most so far that one is still 1 high */
	double x0 = x_of(g, a), x1 = x_of(g, b), inset = fmin(1.5 * (d < 4 ? d : 4), (ACT_H - 2) / 2);

	if (b < g->from || a > g->to)
		return;
	if (g->zoomable)
		tl_data_act(&g->data, l, ls_span(g->first, a), ls_span(g->first, b),
			    reg ? g->paint[ri] : P_USER, d, ri);
	if (x1 - x0 < 0.5) {	/* too short to draw: its lane's density */
		size_t col = (size_t)(x0 - LABEL_W);

		g->lanes[l].cover[col < (size_t)(g->width - LABEL_W) ? col : (size_t)(g->width - LABEL_W) - 1] +=
			span_ns(a, b);
		return;
	}
	printf("<rect class=\"%s\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"><title>",
	       paints[reg ? g->paint[ri] : P_USER].cls, x0, g->lane_y[l] + inset, x1 - x0,
	       ACT_H - 1 - 2 * inset);
	name_text(reg, "region", r);
	printf(" %.9f s</title></rect>\n", span_ns(a, b) / 1e9);
}

/* Pass 2: activities at their leave, wait states hatched. */
static void draw(struct svg *g, const struct ls_record *rec)
{
	uint64_t s, r = 0, dur;
	struct lane_state *ls;
	uint32_t si, l;
	int64_t t;

	if (ls_get_u64(rec, LS_F_S, &s) < 0 || ls_get_i64(rec, LS_F_T, &t) < 0 ||
	    (si = names_index(&g->streams, s)) == UINT32_MAX || (l = g->lane_of[si]) == UINT32_MAX)
		return;
	ls = &g->lanes[l];
	switch (rec->kind) {
	case LS_K_ENTER:
		/* the activity it enters in is drawn up to here: each moment by its innermost */
		ls_get_u64(rec, LS_F_R, &r);
		if (ls->depth && ls->depth <= MAX_DEPTH)
			activity(g, l, ls->stack[ls->depth - 1].since, t, ls->depth - 1, ls->stack[ls->depth - 1].r);
		if (ls->depth < MAX_DEPTH)
			ls->stack[ls->depth] = (struct open){ t, r };
		ls->depth++;
		break;
	case LS_K_LEAVE:
		if (!ls->depth)
			break;
		ls->depth--;
		if (ls->depth < MAX_DEPTH)
			activity(g, l, ls->stack[ls->depth].since, t, ls->depth, ls->stack[ls->depth].r);
		if (ls->depth && ls->depth <= MAX_DEPTH)
			ls->stack[ls->depth - 1].since = t;
		break;
	case LS_K_WAIT:
		if (ls_get_u64(rec, LS_F_DUR, &dur) < 0 || t > g->to || end_of(t, dur) < g->from)
			break;
		if (g->zoomable)
			tl_data_wait(&g->data, l, ls_span(g->first, t), dur);
		if (x_of(g, end_of(t, dur)) - x_of(g, t) >= 0.5)
			printf("<rect class=\"wait\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"/>\n",
			       x_of(g, t), g->lane_y[l], x_of(g, end_of(t, dur)) - x_of(g, t),
			       ACT_H - 1);
		break;
	default:
		break;
	}
}

/* The short activities of each lane: runs of columns of like density as one band. */
static void density(const struct svg *g)
{
	double ns_per_px = 1 / g->scale;

	for (uint32_t l = 0; l < g->nlanes; l++) {
		const double *c = g->lanes[l].cover;
		size_t n = (size_t)(g->width - LABEL_W);

		for (size_t i = 0; i < n;) {
			int level = (int)fmin(10, ceil(10 * c[i] / ns_per_px));
			size_t j = i + 1;

			while (j < n && (int)fmin(10, ceil(10 * c[j] / ns_per_px)) == level)
				j++;
			if (level > 0)
				printf("<rect class=\"dense\" x=\"%.0f\" y=\"%.1f\" width=\"%zu\" height=\"%.1f\" "
				       "fill-opacity=\"%.1f\"/>\n", LABEL_W + (double)i, g->lane_y[l] + ACT_H / 2 - 2,
				       j - i, 4.0, level / 10.0);
			i = j;
		}
	}
}

/* Lane l's path pieces not drawn yet, as one rect of its strip (data-ns their sum). */
static void flush_lane(struct svg *g, uint32_t l)
{
	struct lane_state *ls = &g->lanes[l];

	if (ls->pending)
		printf("<rect class=\"crit\" data-ns=\"%" PRIu64 "\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
		       "height=\"%.1f\"/>\n", ls->ns, ls->x0, g->lane_y[l] + ACT_H, fmax(ls->x1 - ls->x0, 0.5),
		       PATH_H - 1);
	ls->pending = false;
}

/*
 * Pass 3: the path's pieces in each lane's strip (a piece that begins
 * within a pixel of where the lane's last one ended joins it), and a line
 * where the path steps to another lane after a pixel or more on one, one
 * line per pixel: where it changes lanes more often, the strips say where
 * it was.
 */
static void path(struct svg *g, const struct ls_record *rec)
{
	uint64_t s, dur;
	uint32_t si, l;
	struct lane_state *ls;
	int64_t t;
	double x0, x1;

	if (rec->kind != LS_K_CRIT || ls_get_u64(rec, LS_F_S, &s) < 0 || ls_get_i64(rec, LS_F_T, &t) < 0 ||
	    ls_get_u64(rec, LS_F_DUR, &dur) < 0 || (si = names_index(&g->streams, s)) == UINT32_MAX ||
	    (l = g->lane_of[si]) == UINT32_MAX || t > g->to || end_of(t, dur) < g->from)
		return;
	if (g->zoomable)
		tl_data_piece(&g->data, l, ls_span(g->first, t), dur);
	x0 = x_of(g, t);
	x1 = x_of(g, end_of(t, dur));
	ls = &g->lanes[l];
	if (g->have_piece && g->piece_lane != l && g->piece_x - g->run_x >= 1 && fabs(x0 - g->hop_x) >= 1) {
		printf("<line class=\"hop\" x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\"/>\n", g->piece_x,
		       g->lane_y[g->piece_lane] + ACT_H + PATH_H / 2, x0, g->lane_y[l] + ACT_H + PATH_H / 2);
		g->hop_x = x0;
	}
	if (!g->have_piece || g->piece_lane != l)
		g->run_x = x0;
	if (ls->pending && x0 - ls->x1 < 1 && x0 >= ls->x0) {
		ls->ns += dur;
		ls->x1 = fmax(ls->x1, x1);
	} else {
		flush_lane(g, l);
		ls->pending = true;
		ls->x0 = x0;
		ls->x1 = x1;
		ls->ns = dur;
	}
	g->have_piece = true;
	g->piece_lane = l;
	g->piece_x = x1;
}

static void legend(const struct svg *g)
{
	double x = 10, y = g->height - g->legend_h + 6;

	printf("<g class=\"legend\">");
	for (int p = 0; p < P__COUNT; p++, x += ITEM_W) {
		if (x + ITEM_W > g->width) {
			x = 10;
			y += 16;
		}
		printf("<rect class=\"%s\" x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"10\"/>"
		       "<text x=\"%.0f\" y=\"%.0f\">%s</text>", paints[p].cls, x, y, x + 16, y + 9, paints[p].what);
	}
	y += 16;
	x = 10;
	printf("<rect class=\"bg\" x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"10\"/><rect class=\"wait\" "
	       "x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"10\"/><text x=\"%.0f\" y=\"%.0f\">wait state</text>",
	       x, y, x, y, x + 16, y + 9);
	printf("<rect class=\"crit\" x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"4\"/><text x=\"%.0f\" y=\"%.0f\">"
	       "critical path (a strip under each lane), lines its steps</text>", x + 100, y + 6, x + 116, y + 9);
	printf("<rect class=\"dense\" x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"4\"/><text x=\"%.0f\" y=\"%.0f\">"
	       "too short to draw</text>", x + 380, y + 3, x + 396, y + 9);
	printf("</g>\n</svg>\n");
}

/*
 * What the page's script redraws from, after the picture: the geometry,
 * the names, and the items kept (timeline-data.h); where there were too
 * many to keep, only why ("over").
 */
static void zoom_data(const struct svg *g)
{
	printf("<script type=\"application/json\" id=\"timeline-data\">{\"first\":%" PRId64 ",\"from\":%.0f,"
	       "\"to\":%.0f,\"window\":%s,\"width\":%.0f,\"label\":%.0f,\"act_h\":%.0f,\"path_h\":%.0f,"
	       "\"axis_end\":%.1f,\"lanes\":[", g->first, span_ns(g->first, g->from), span_ns(g->first, g->to),
	       g->window ? "true" : "false", g->width, LABEL_W, ACT_H, PATH_H, g->height - g->legend_h);
	for (uint32_t l = 0; l < g->nlanes; l++)
		printf("%s%.1f", l ? "," : "", g->lane_y[l]);
	printf("],\"paints\":[");
	for (int p = 0; p < P__COUNT; p++)
		printf("%s\"%s\"", p ? "," : "", paints[p].cls);
	printf("],\"regions\":[");
	for (uint32_t i = 0; i < g->regions.n; i++) {
		fputs(i ? "," : "", stdout);
		if (g->regions.v[i].name)
			json_text(g->regions.v[i].name, strlen(g->regions.v[i].name), true);
		else
			printf("\"region %" PRIu64 "\"", g->regions.v[i].id);
	}
	printf("],");
	if (tl_data_kept(&g->data))
		tl_data_print(&g->data);
	else
		printf("\"over\":%" PRIu64, g->data.max);
	printf("}</script>\n");
}

static int learn_each(void *g, const struct ls_record *rec)
{
	return learn(g, rec);
}

static int draw_each(void *g, const struct ls_record *rec)
{
	draw(g, rec);
	return 0;
}

static int path_each(void *g, const struct ls_record *rec)
{
	path(g, rec);
	return 0;
}

static int picture(struct svg *g, struct ls_reader *r, double from_s, double to_s)
{
	if (tool_pass_checked(r, learn_each, g) != 0)
		return 1;
	if (!g->any) {
		tool_error("%s: no activities to draw", r->name);
		return 1;
	}
	g->from = g->first;
	g->to = g->last;
	if (g->window) {
		double run = span_ns(g->first, g->last);

		if (from_s * 1e9 >= run) {
			tool_error("-t %g,%g: the run lasts %.9f s", from_s, to_s, run / 1e9);
			return 2;
		}
		/* within the run (below 2^63 ns): each a time */
		g->from = ls_time_plus_held(g->first, (int64_t)(from_s * 1e9));
		g->to = to_s * 1e9 >= run ? g->last : ls_time_plus_held(g->first, (int64_t)(to_s * 1e9));
	}
	g->scale = (g->width - LABEL_W) / (g->to > g->from ? span_ns(g->from, g->to) : 1);
	if (lay_out(g) < 0) {
		tool_error("out of memory");
		return 1;
	}
	if (g->zoomable && tl_data_init(&g->data, g->nlanes) < 0) {
		tool_error("out of memory");
		return 1;
	}
	head(g);
	printf("<g id=\"tl-acts\">\n");
	if (tool_pass(r, draw_each, g) != 0)
		return 1;
	density(g);
	printf("</g>\n<g id=\"tl-path\">\n");
	if (tool_pass(r, path_each, g) != 0)
		return 1;
	for (uint32_t l = 0; l < g->nlanes; l++)
		flush_lane(g, l);
	printf("</g>\n");
	legend(g);
	if (g->zoomable)
		zoom_data(g);
	return 0;
}

int timeline_svg(struct ls_reader *r, const struct timeline_opts *o)
{
	struct svg g = { .width = o->width, .window = o->window, .inline_svg = o->inline_svg,
			 .zoomable = o->zoomable };
	int status = picture(&g, r, o->from_s, o->to_s);

	for (uint32_t l = 0; g.lanes && l < g.nlanes; l++)
		free(g.lanes[l].cover);
	free(g.lanes);
	free(g.paint);
	free(g.lane_of);
	free(g.lane_y);
	names_release(&g.procs);
	names_release(&g.streams);
	names_release(&g.regions);
	tl_data_release(&g.data);
	return status;
}

/* -t FROM,TO in seconds from the run's start: 0, or -1. */
static int window_arg(const char *arg, double *from, double *to)
{
	char *end;

	errno = 0;
	*from = strtod(arg, &end);
	if (end == arg || *end != ',' || errno)
		return -1;
	arg = end + 1;
	*to = strtod(arg, &end);
	return end == arg || *end || errno || !(*from >= 0) || !(*to > *from) ? -1 : 0;
}

int timeline_arg(int opt, const char *arg, struct timeline_opts *o)
{
	char *end;

	if (opt == 't') {
		if (window_arg(arg, &o->from_s, &o->to_s) < 0) {
			tool_error("-t %s: give a window like 0.5,1.5 (seconds from the run's start)", arg);
			return 2;
		}
		o->window = true;
		return 0;
	}
	o->width = strtod(arg, &end);
	if (end == arg || *end || !(o->width >= 400 && o->width <= 20000)) {
		tool_error("-w %s: give a width from 400 to 20000 pixels", arg);
		return 2;
	}
	return 0;
}
