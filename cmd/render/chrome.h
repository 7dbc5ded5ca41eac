/* tr-chrome's Chrome trace-event JSON of an analysed stream (chrome.c). */
#ifndef CHROME_H
#define CHROME_H

#include "../../libstream/reader.h"

/*
 * The JSON of r (opened to be read again: tool_open_again) on standard
 * output. Returns the exit status: 0, or 1 after a message.
 */
int chrome_json(struct ls_reader *r);

#endif
