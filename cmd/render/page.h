/*
 * What every page tr-report writes holds, so that it opens anywhere
 * without a network: its style sheet, and the script that sorts a
 * table of class "sortable" by a click on a heading (by each cell's
 * data-v, numbers as numbers where the heading's data-type is "num").
 */
#ifndef PAGE_H
#define PAGE_H

extern const char page_style[];
extern const char page_script[];

#endif
