#!/usr/bin/env python3
"""What a browser made of tr-report's page (the DOM chromium --dump-dom
wrote, on stdin), one fact a line, for the tests to compare:

    row RANK<TAB>REGION<TAB>CALLS<TAB>EXCL<TAB>CP<TAB>BLAME<TAB>ON PATH
                                                               the rating table in its order
                                                               (times in ns, as the cells sort by them)
    lanes N                                                    the timeline's lanes (g.lane)
    crit NS                                                    the path strips' data-ns, summed
    hops N                                                     the path's steps between lanes drawn
    view FROM TO DRAWN                                         the window the timeline shows (s) and
                                                               the activities drawn in it
    titles N SHA1                                              the activities drawn: how many, and
                                                               a digest of their titles in order
    bars N                                                     chart rows (tr with data-pattern or data-process)
    external N                                                 src= or href= attributes (must be 0)
                                                               but links within the page (#...)
    words TEXT                                                 each row told in words (section#words), as text
    broken N                                                   links within the page to no element's id

or, for tr-report --diff's page:

    diff RANK<TAB>REGION<TAB>CP A<TAB>CP B<TAB>BLAME A<TAB>BLAME B<TAB>RATING B-A
                                                               the regions' table in its order (times in ns)
    figure WHAT<TAB>A<TAB>B                                    each run's figures (ns)
    external N, broken N                                       as above

Exit 1 (with the reason) where the page lacks the rating table or the SVG,
and is not a --diff page.
"""
import hashlib
import sys
from html.parser import HTMLParser


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows, self.row = [], None
        self.in_rating = self.in_diff = False
        self.diff, self.figures, self.figure = [], [], None
        self.lanes = self.crit = self.bars = self.external = self.hops = 0
        self.svgs = 0
        self.view, self.titles, self.in_title = None, [], None
        self.words, self.in_words, self.item = [], False, None
        self.ids, self.links = set(), []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if a.get("href", "").startswith("#"):
            self.links.append(a["href"][1:])
        elif "src" in a or "href" in a:
            self.external += 1
        if tag == "section" and a.get("id") == "words":
            self.in_words = True
        elif self.in_words and tag == "li":
            self.item = ""
        if tag == "table" and a.get("id") == "rating-table":
            self.in_rating = True
        elif tag == "table" and a.get("id") == "diff-table":
            self.in_diff = True
        elif self.in_diff and tag == "tr":
            self.row = []
        elif self.in_diff and tag == "td" and self.row is not None:
            self.row.append(a.get("data-v", ""))
        elif tag == "tr" and "data-figure" in a:
            self.figure = [a["data-figure"]]
        elif tag == "td" and self.figure is not None:
            self.figure.append(a.get("data-v", ""))
        elif tag == "tr" and ("data-pattern" in a or "data-process" in a):
            self.bars += 1
        elif self.in_rating and tag == "tr":
            self.row = []
        elif self.in_rating and tag == "td" and self.row is not None:
            self.row.append(a.get("data-v", ""))
        elif tag == "svg":
            self.svgs += 1
            self.view = (a.get("data-from"), a.get("data-to"), a.get("data-drawn"))
        elif tag == "title" and self.svgs:
            self.in_title = ""
        elif tag == "g" and a.get("class") == "lane":
            self.lanes += 1
        elif tag == "line" and a.get("class") == "hop":
            self.hops += 1
        elif tag == "rect" and a.get("class") == "crit" and "data-ns" in a:
            self.crit += int(a["data-ns"])

    def handle_data(self, data):
        if self.item is not None:
            self.item += data
        if self.in_title is not None:
            self.in_title += data

    def handle_endtag(self, tag):
        if tag == "title" and self.in_title is not None:
            self.titles.append(self.in_title)
            self.in_title = None
        if tag == "li" and self.item is not None:
            self.words.append(self.item)
            self.item = None
        elif tag == "section":
            self.in_words = False
        if tag == "table" and self.in_rating:
            self.in_rating = False
        elif tag == "table" and self.in_diff:
            self.in_diff = False
        elif tag == "tr" and self.figure is not None:
            self.figures.append(self.figure)
            self.figure = None
        elif tag == "tr" and self.row and self.in_diff:
            self.diff.append(self.row)
            self.row = None
        elif tag == "tr" and self.row:
            self.rows.append(self.row)
            self.row = None


def main():
    p = Page()
    p.feed(sys.stdin.read())
    if p.diff:
        for r in p.diff:
            print("diff " + "\t".join([r[0], r[1], r[2], r[3], r[5], r[6], r[10]]))
        for f in p.figures:
            print("figure " + "\t".join(f[:3]))
        print("external %d" % p.external)
        print("broken %d" % sum(1 for x in p.links if x not in p.ids))
        return
    if not p.rows:
        sys.exit("report-dom: no rows in the rating table")
    if p.svgs != 1:
        sys.exit("report-dom: %d SVG pictures, not 1" % p.svgs)
    for r in p.rows:
        print("row " + "\t".join([r[0], r[1], r[2], r[3], r[4], r[6], r[8]]))
    print("lanes %d" % p.lanes)
    print("crit %d" % p.crit)
    print("hops %d" % p.hops)
    if p.view and p.view[0] is not None:
        print("view %s %s %s" % p.view)
    print("titles %d %s" % (len(p.titles), hashlib.sha1("\n".join(p.titles).encode()).hexdigest()))
    print("bars %d" % p.bars)
    print("external %d" % p.external)
    for w in p.words:
        print("words " + w)
    print("broken %d" % sum(1 for x in p.links if x not in p.ids))


main()
