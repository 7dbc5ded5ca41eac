/* Text inside XML and HTML (the pictures and the report). */
#ifndef XML_H
#define XML_H

/* s on stdout as XML text (also inside attribute values): <, >, &, " escaped, control characters left out. */
void xml_text(const char *s);

#endif
