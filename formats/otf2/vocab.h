/*
 * What OTF2's enumerations mean in the stream, both ways: paradigms and
 * their names, region roles and paradigms as region roles of ours,
 * collective operations and their names. The reader and the writer share
 * these tables, so what the writer picks is what the reader gives back.
 */
#ifndef OTF2_VOCAB_H
#define OTF2_VOCAB_H

#include <otf2/otf2.h>

#include "../../libstream/schema.h"

/* "mpi", "cuda", ...; "other" for a paradigm without a name here. */
const char *otf2_paradigm_name(OTF2_Paradigm p);

/* The paradigm named s; OTF2_PARADIGM_UNKNOWN for "other" and the unnamed. */
OTF2_Paradigm otf2_paradigm_by_name(const char *s);

/*
 * A region's role: the API name table first, then what OTF2's region
 * role and paradigm say. *dir is set as ls_role_by_name sets it.
 */
enum ls_role otf2_classify(const char *name, OTF2_RegionRole role,
			   OTF2_Paradigm paradigm, const char **dir);

/*
 * The OTF2 region role (and, where the paradigm given cannot carry it, the
 * paradigm in *paradigm) under which otf2_classify gives back role for a
 * region called name. Returns false, with the most fitting role in *out,
 * when no combination does: the region's role then comes back by name.
 */
bool otf2_role_for(enum ls_role role, const char *name, OTF2_Paradigm *paradigm,
		   OTF2_RegionRole *out);

/* "allreduce", ...; "other" for an operation without a name here. */
const char *otf2_op_name(OTF2_CollectiveOp op);

/* The operation named s; one that reads back as "other" if none is. */
OTF2_CollectiveOp otf2_op_by_name(const char *s);

#endif
