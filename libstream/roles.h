/*
 * The one table from API names (MPI, CUDA driver and runtime, HIP, OpenCL,
 * OpenMP runtime) to region roles, used by every trace reader.
 * docs/roles.md is its prose; a test checks that the two agree.
 */
#ifndef LS_ROLES_H
#define LS_ROLES_H

#include "schema.h"

/*
 * The role of an API function by its name, ignoring the suffixes _v2, _v3,
 * _ptsz, _ptds and _spt. LS_R_UNKNOWN if the name is not in the table.
 * For copy roles, *dir is set to "htod", "dtoh", "dtod", "htoh" or "ptop"
 * when the name says, else NULL; dir may be NULL.
 */
enum ls_role ls_role_by_name(const char *name, const char **dir);

/*
 * The name of the region tr-critpath defines for the OpenMP runtime's
 * team start (role omp_team_start): the time from a fork to a team
 * thread's start, which no activity of the trace records.
 */
#define LS_TEAM_START_NAME "OpenMP team start"

/*
 * What the readers put before the name of a launch or copy call whose
 * GPU work the trace does not hold (its region then of role gpu_api).
 */
#define LS_NO_GPU_WORK_PREFIX "(no GPU activity in the trace) "

/*
 * The shape of a collective by its operation's name op[0..n) (a
 * nonblocking one's too, "iallreduce"): mpi_barrier, mpi_one2n (bcast,
 * scatter), mpi_n2one (reduce, gather), mpi_scan (scan, exscan), and
 * mpi_n2n for the rest and for names not known (all wait for all).
 */
enum ls_role ls_role_by_op(const char *op, size_t n);

/* Entry i of the table (for listing it); NULL past the end. */
const char *ls_role_table_name(int i, enum ls_role *role);

#endif
