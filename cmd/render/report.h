/* tr-report's page of an analysed stream (report.c). */
#ifndef REPORT_H
#define REPORT_H

#include "../../libstream/reader.h"
#include "rank-table.h"
#include "timeline.h"

/*
 * The page of r (opened to be read again: tool_open_again) on standard
 * output, the rating as o asks, the timeline as t. Returns the exit
 * status: 0, or 1 after a message.
 */
int report_page(struct ls_reader *r, const struct rank_opts *o, const struct timeline_opts *t);

#endif
