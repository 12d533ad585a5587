/* SPDX-License-Identifier: GPL-2.0 */
/*
 * table.h - the '|'-separated data files of kernels/: "a | b | c" lines,
 * '#' comments.
 */
#ifndef LOCKLAT_TABLE_H
#define LOCKLAT_TABLE_H

#include <stddef.h>

/*
 * The '|'-separated fields of line (comments, also indented ones, and lines
 * without '|' give 0), trimmed, into fields[0..max); the last field keeps
 * any further '|'. The line is cut in place. Returns how many were found.
 */
size_t table_fields(char *line, char **fields, size_t max);

#endif
