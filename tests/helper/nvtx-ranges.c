/*
 * nvtx-ranges: a program that marks ranges with NVTX (its header-only
 * nvtx3, as a CUDA program or PyTorch has it) and nothing else, for the
 * CUDA collector's NVTX side without a GPU (tests/3006): "outer" pushed
 * with nvtxRangePushA, "inner" with nvtxRangePushEx (an ASCII message),
 * both popped, then a pop too many. It prints what each call returned:
 * under an NVTX tool "0 1 1 0 -1" (the levels opened and closed, -1 for
 * none), without one "-2 -2 -2 -2 -2".
 */
#include <nvtx3/nvToolsExt.h>
#include <stdio.h>

int main(void)
{
	nvtxEventAttributes_t inner = { 0 };
	int got[5];

	inner.version = NVTX_VERSION;
	inner.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
	inner.messageType = NVTX_MESSAGE_TYPE_ASCII;
	inner.message.ascii = "inner";
	got[0] = nvtxRangePushA("outer");
	got[1] = nvtxRangePushEx(&inner);
	got[2] = nvtxRangePop();
	got[3] = nvtxRangePop();
	got[4] = nvtxRangePop();
	printf("%d %d %d %d %d\n", got[0], got[1], got[2], got[3], got[4]);
	return 0;
}
