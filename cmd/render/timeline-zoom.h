/*
 * The script of tr-report's timeline: zoom (wheel, buttons) and pan
 * (drag) over the run, the picture redrawn for the window from the items
 * the page holds (timeline-data.h): activities narrower than half a
 * pixel as their lane's density, the path's strip whole (its pieces
 * clipped to the window, data-ns their sum), the axis; the window in the
 * address's fragment (#t=FROM,TO, seconds from the run's first event), so
 * that a view can be shared, and taken from it when the page opens.
 * The picture's svg element says what it shows: data-from, data-to
 * (seconds) and data-drawn (the activities drawn).
 */
#ifndef TIMELINE_ZOOM_H
#define TIMELINE_ZOOM_H

extern const char timeline_zoom_script[];

#endif
