/* SPDX-License-Identifier: MIT */
/*
 * YAML text -> a small document tree (ynode) in an arena.
 *
 * Two parsers build the same tree:
 *   - libyaml's event parser, used for anything, with its error messages
 *     and line numbers;
 *   - a fast path for the plain subset the runtime writes (block maps and
 *     sequences, plain and simple double-quoted scalars, one-line flow maps
 *     of scalars).  It is about 10x faster than libyaml, which matters when
 *     merging thousands of rank files.  It gives up (returns NULL) on
 *     anything outside its subset, and the caller then runs libyaml, so
 *     the accepted language and all error messages are libyaml's.
 */
#include "report.h"
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#define MAX_DEPTH 64

ynode *ymap_get(const ynode *map, const char *key)
{
	if (!map || map->type != Y_MAP)
		return NULL;
	for (ynode *k = map->first; k && k->next; k = k->next->next)
		if (k->type == Y_SCALAR && !strcmp(k->s, key))
			return k->next;
	return NULL;
}

ynode *ydom_parse_libyaml(const char *buf, size_t len, arena *a, yerr *e)
{
	yaml_parser_t p;
	yaml_event_t ev;
	ynode *stack[MAX_DEPTH], *root = NULL;
	int sp = 0, docs = 0;
	bool done = false;

	if (!yaml_parser_initialize(&p)) {
		e->line = 0;
		snprintf(e->msg, sizeof e->msg, "cannot initialize the YAML parser");
		return NULL;
	}
	yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
	while (!done) {
		if (!yaml_parser_parse(&p, &ev)) {
			const yaml_mark_t *m = &p.problem_mark;
			e->line = (unsigned)m->line + 1;
			if (p.error == YAML_READER_ERROR) {
				/* Bad bytes: libyaml gives only their offset. */
				e->line = 1;
				for (size_t i = 0; i < p.problem_offset && i < len; i++)
					e->line += buf[i] == '\n';
			}
			if (p.context)
				snprintf(e->msg, sizeof e->msg, "YAML error: %s %s",
					 p.problem ? p.problem : "syntax error", p.context);
			else
				snprintf(e->msg, sizeof e->msg, "YAML error: %s",
					 p.problem ? p.problem : "syntax error");
			root = NULL;
			break;
		}
		unsigned line = (unsigned)ev.start_mark.line + 1;
		ynode *n = NULL;
		const char *stop = NULL;	/* an error that ends the parse */
		switch (ev.type) {
		case YAML_DOCUMENT_START_EVENT:
			if (++docs > 1)
				stop = "more than one YAML document";
			break;
		case YAML_ALIAS_EVENT:
			stop = "YAML aliases are not allowed in a profile";
			break;
		case YAML_SCALAR_EVENT:
			n = ynode_new(a, Y_SCALAR, line);
			n->s = arena_strndup(a, (const char *)ev.data.scalar.value,
					     ev.data.scalar.length);
			n->plain = ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
			break;
		case YAML_SEQUENCE_START_EVENT:
			n = ynode_new(a, Y_SEQ, line);
			break;
		case YAML_MAPPING_START_EVENT:
			n = ynode_new(a, Y_MAP, line);
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			if (sp > 0)
				sp--;
			break;
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		default:
			break;
		}
		if (n) {
			if (sp > 0)
				ynode_append(stack[sp - 1], n);
			else
				root = n;
			if (n->type != Y_SCALAR) {
				if (sp == MAX_DEPTH)
					stop = "YAML nested too deeply";
				else
					stack[sp++] = n;
			}
		}
		if (stop) {
			e->line = line;
			snprintf(e->msg, sizeof e->msg, "%s", stop);
			root = NULL;
			done = true;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	if (root == NULL && docs <= 1 && done && !e->msg[0]) {
		e->line = 1;
		snprintf(e->msg, sizeof e->msg, "empty file, not a selinst profile");
	}
	return root;
}

ynode *ydom_parse(const char *buf, size_t len, arena *a, yerr *e)
{
	e->line = 0;
	e->msg[0] = 0;
	/* SELINST_REPORT_LIBYAML=1 skips the fast path (tests compare both). */
	const char *only = getenv("SELINST_REPORT_LIBYAML");
	ynode *r = only && *only == '1' ? NULL : ydom_parse_fast(buf, len, a);
	if (r)
		return r;
	return ydom_parse_libyaml(buf, len, a, e);
}
