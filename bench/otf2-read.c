/*
 * otf2-read ARCHIVE: the baseline for tr-read's benchmark. A plain libotf2
 * read of every event through the global (merging) reader, as tr-read
 * reads, with callbacks that only count. Prints the event count.
 */
#include <inttypes.h>
#include <stdio.h>

#include <otf2/otf2.h>

static uint64_t events;

#define COUNT(name, ...) \
	static OTF2_CallbackCode count_##name(OTF2_LocationRef loc_, OTF2_TimeStamp time_, \
					      void *data_, OTF2_AttributeList *attrs_, __VA_ARGS__) \
	{ \
		(void)loc_, (void)time_, (void)data_, (void)attrs_; \
		events++; \
		return OTF2_CALLBACK_SUCCESS; \
	}
#define U __attribute__((unused))

COUNT(Enter, OTF2_RegionRef r U)
COUNT(Leave, OTF2_RegionRef r U)
COUNT(MpiSend, uint32_t a U, OTF2_CommRef b U, uint32_t c U, uint64_t e U)
COUNT(MpiRecv, uint32_t a U, OTF2_CommRef b U, uint32_t c U, uint64_t e U)
COUNT(MpiCollectiveEnd, OTF2_CollectiveOp a U, OTF2_CommRef b U, uint32_t c U, uint64_t e U, uint64_t f U)
COUNT(ThreadFork, OTF2_Paradigm a U, uint32_t b U)
COUNT(ThreadJoin, OTF2_Paradigm a U)
COUNT(ThreadTeamBegin, OTF2_CommRef a U)
COUNT(ThreadTeamEnd, OTF2_CommRef a U)
COUNT(RmaGet, OTF2_RmaWinRef a U, uint32_t b U, uint64_t c U, uint64_t e U)
COUNT(RmaPut, OTF2_RmaWinRef a U, uint32_t b U, uint64_t c U, uint64_t e U)
COUNT(RmaOpCompleteBlocking, OTF2_RmaWinRef a U, uint64_t b U)
COUNT(ParameterUnsignedInt, OTF2_ParameterRef a U, uint64_t b U)

static OTF2_CallbackCode count_MpiCollectiveBegin(OTF2_LocationRef l, OTF2_TimeStamp t, void *d,
						  OTF2_AttributeList *a)
{
	(void)l, (void)t, (void)d, (void)a;
	events++;
	return OTF2_CALLBACK_SUCCESS;
}

#define MAX_LOCATIONS 65536
static OTF2_LocationRef locations[MAX_LOCATIONS];
static uint32_t nlocations;

static OTF2_CallbackCode on_location(void *data, OTF2_LocationRef self, OTF2_StringRef name,
				     OTF2_LocationType type, uint64_t n, OTF2_LocationGroupRef g)
{
	(void)name, (void)type, (void)n, (void)g;
	if (nlocations == MAX_LOCATIONS)
		return OTF2_CALLBACK_INTERRUPT;
	OTF2_Reader_SelectLocation(data, self);
	locations[nlocations++] = self;
	return OTF2_CALLBACK_SUCCESS;
}

int main(int argc, char **argv)
{
	OTF2_Reader *reader;
	OTF2_GlobalDefReader *defs;
	OTF2_GlobalDefReaderCallbacks *dcb;
	OTF2_GlobalEvtReaderCallbacks *ecb;
	OTF2_GlobalEvtReader *evt;
	uint64_t n, nlocs;

	if (argc != 2 || !(reader = OTF2_Reader_Open(argv[1]))) {
		fprintf(stderr, "usage: otf2-read ARCHIVE.otf2\n");
		return 2;
	}
	OTF2_Reader_SetSerialCollectiveCallbacks(reader);
	defs = OTF2_Reader_GetGlobalDefReader(reader);
	dcb = OTF2_GlobalDefReaderCallbacks_New();
	OTF2_GlobalDefReaderCallbacks_SetLocationCallback(dcb, on_location);
	OTF2_Reader_RegisterGlobalDefCallbacks(reader, defs, dcb, reader);
	OTF2_Reader_ReadAllGlobalDefinitions(reader, defs, &n);
	OTF2_Reader_CloseGlobalDefReader(reader, defs);
	OTF2_GlobalDefReaderCallbacks_Delete(dcb);
	OTF2_Reader_GetNumberOfLocations(reader, &nlocs);
	OTF2_Reader_OpenEvtFiles(reader);
	for (uint32_t i = 0; i < nlocations; i++)
		OTF2_Reader_GetEvtReader(reader, locations[i]);
	evt = OTF2_Reader_GetGlobalEvtReader(reader);
	ecb = OTF2_GlobalEvtReaderCallbacks_New();
#define SET(name) OTF2_GlobalEvtReaderCallbacks_Set##name##Callback(ecb, count_##name)
	SET(Enter); SET(Leave); SET(MpiSend); SET(MpiRecv); SET(MpiCollectiveBegin);
	SET(MpiCollectiveEnd); SET(ThreadFork); SET(ThreadJoin); SET(ThreadTeamBegin);
	SET(ThreadTeamEnd); SET(RmaGet); SET(RmaPut); SET(RmaOpCompleteBlocking);
	SET(ParameterUnsignedInt);
	OTF2_GlobalEvtReader_SetCallbacks(evt, ecb, NULL);
	OTF2_GlobalEvtReaderCallbacks_Delete(ecb);
	OTF2_Reader_ReadAllGlobalEvents(reader, evt, &n);
	OTF2_Reader_CloseGlobalEvtReader(reader, evt);
	OTF2_Reader_CloseEvtFiles(reader);
	OTF2_Reader_Close(reader);
	printf("%" PRIu64 "\n", events);
	return 0;
}
