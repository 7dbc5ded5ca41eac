/*
 * NVTX's side of the CUDA collector. NVTX loads this library where
 * NVTX_INJECTION64_PATH names it (tr-record points it here, beside
 * CUDA_INJECTION64_PATH) and calls InitializeInjectionNvtx2 at the
 * program's first NVTX call: the collector puts its own range push and
 * pop into NVTX's function table, and records each range on the thread
 * that pushed or popped it. The ranges come straight from NVTX, not
 * through CUPTI: a program that brings its own CUPTI (PyTorch does) would
 * have had them go to a second copy of CUPTI that no one listens to.
 * Messages are ASCII text (nvtxRangePushA, or an attribute's ascii
 * message); any other kind is recorded as "?".
 */
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

#include "../log.h"
#include "cudarec.h"

int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_table);

static __thread int depth;	/* the thread's ranges open */

/* An attribute's message, where it is text. */
static const char *message(const nvtxEventAttributes_t *a)
{
	return a && a->messageType == NVTX_MESSAGE_TYPE_ASCII && a->message.ascii ? a->message.ascii : "?";
}

/* NVTX's answers: a push the level it opened (from 0), a pop the level it closed, -1 for none. */
static int push(const char *name)
{
	rec_cuda_range(name, rec_now());
	return depth++;
}

static int NVTX_API push_a(const char *text)
{
	return push(text ? text : "?");
}

static int NVTX_API push_ex(const nvtxEventAttributes_t *a)
{
	return push(message(a));
}

static int NVTX_API domain_push_ex(nvtxDomainHandle_t domain, const nvtxEventAttributes_t *a)
{
	(void)domain;
	return push(message(a));
}

static int NVTX_API pop(void)
{
	if (!depth)
		return -1;
	rec_cuda_range(NULL, rec_now());
	return --depth;
}

static int NVTX_API domain_pop(nvtxDomainHandle_t domain)
{
	(void)domain;
	return pop();
}

/* Entry id of module m's table: f, where NVTX has the entry. */
static void put(const NvtxExportTableCallbacks *cb, NvtxCallbackModule m, unsigned id, NvtxFunctionPointer f)
{
	NvtxFunctionTable table = NULL;
	unsigned size = 0;

	if (cb->GetModuleFunctionTable(m, &table, &size) && table && id <= size && table[id])
		*table[id] = f;
}

int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_table)
{
	const NvtxExportTableCallbacks *cb = get_table ? get_table(NVTX_ETID_CALLBACKS) : NULL;

	if (!rec_on() || !cb || cb->struct_size < sizeof(*cb) || !cb->GetModuleFunctionTable)
		return 0;
	put(cb, NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePushA, (NvtxFunctionPointer)push_a);
	put(cb, NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePushEx, (NvtxFunctionPointer)push_ex);
	put(cb, NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePop, (NvtxFunctionPointer)pop);
	put(cb, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangePushEx, (NvtxFunctionPointer)domain_push_ex);
	put(cb, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangePop, (NvtxFunctionPointer)domain_pop);
	return 1;
}
