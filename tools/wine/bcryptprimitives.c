/* Wine 8 has no bcryptprimitives.dll, which Go's runtime (1.22+) loads for ProcessPrng:
   this one answers it from advapi32's RtlGenRandom, for running judge.exe under Wine in tests. */
#include <windows.h>
BOOLEAN WINAPI SystemFunction036(PVOID, ULONG);
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (!SystemFunction036(data, n)) return FALSE;
		data += n; len -= n;
	}
	return TRUE;
}
