/*
 * fakecuda.c implements a fake CUDA driver (libcuda.so.1) for the tests of
 * package cuda: the same exported symbols as the real driver with plausible
 * behaviour on the host. One device, "Fake GPU", reports sm_90 attributes;
 * device memory is malloc'd with a configurable limit so that allocations
 * fail with CUDA_ERROR_OUT_OF_MEMORY; copies and memsets run at once; a
 * module loader accepts PTX text, finds its .entry functions and their
 * parameter sizes, and fails with a JIT error log for PTX that contains
 * FAKE_JIT_ERROR; cuLaunchKernel checks its geometry, records the launch
 * (grid, block, shared memory, stream and every parameter value read
 * through kernelParams) and runs two kernels on the host: fake_add
 * (c[i] = a[i] + b[i] over int32) and fake_axpy (y[i] = alpha*x[i] + y[i]
 * over float32). Events read a deterministic fake clock.
 *
 * The current context is thread-local, as in the real driver: every call
 * that needs a context fails with CUDA_ERROR_INVALID_CONTEXT on a thread
 * where none was made current.
 *
 * Test-only exports (fake_*) let a test set the memory limit and device
 * attributes, inject an error into the next call of a named function, read
 * the last launch, find the live allocation holding a device address, and
 * register a launch hook: cuLaunchKernel then hands every launch of any
 * other kernel to it (entry name, a hash of the module's PTX, grid, block,
 * shared bytes and the decoded parameters), so that a test can run the
 * kernel itself. A non-zero code from the hook is a fault in the kernel:
 * the launch succeeds and the next cuStreamSynchronize of its stream (or
 * cuCtxSynchronize) returns the code, as with the real driver.
 *
 * Sticky faults: as with the real driver, a fault whose code leaves the
 * context unusable (illegal or misaligned address, illegal instruction,
 * launch failure and their kin, see is_sticky) makes every later call that
 * needs the context return that code. Such a fault comes from the launch
 * hook or from fake_fail_next_sticky; fake_clear_fault ends it (a real
 * driver never recovers), and fake_alloc_mark and fake_free_since free
 * what could not be freed meanwhile. fake_fail_load makes the next module
 * load fail with a code and a JIT error log, fake_set_driver_version
 * changes the CUDA version reported, and fake_module_count counts the
 * modules loaded and not unloaded.
 *
 * Fresh device memory is filled with 0xff bytes. Copies and memsets check
 * that their device range lies inside one live allocation
 * (CUDA_ERROR_INVALID_VALUE otherwise).
 *
 * Build: gcc -shared -fPIC -o libcuda.so.1 fakecuda.c -lpthread
 * With -DFAKE_OMIT_LAUNCH the library lacks cuLaunchKernel.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;

enum {
	OK = 0,
	E_INVALID_VALUE = 1,
	E_OUT_OF_MEMORY = 2,
	E_NOT_INITIALIZED = 3,
	E_NO_DEVICE = 100,
	E_INVALID_DEVICE = 101,
	E_INVALID_IMAGE = 200,
	E_INVALID_CONTEXT = 201,
	E_INVALID_PTX = 218,
	E_INVALID_HANDLE = 400,
	E_NOT_FOUND = 500,
	E_NOT_READY = 600,
	E_ILLEGAL_ADDRESS = 700,
	E_LAUNCH_OUT_OF_RESOURCES = 701,
	E_HOST_MEMORY_ALREADY_REGISTERED = 712,
	E_HOST_MEMORY_NOT_REGISTERED = 713,
	E_LAUNCH_FAILED = 719,
	E_UNKNOWN = 999,
};

#define MAGIC_CTX 0x43545821u
#define MAGIC_MEM 0x4d454d21u
#define MAGIC_MOD 0x4d4f4421u
#define MAGIC_FUNC 0x46554e21u
#define MAGIC_STREAM 0x53545221u
#define MAGIC_EVENT 0x45564e21u

#define MAX_FUNCS 256
#define MAX_PARAMS 32
#define MAX_REG 256
#define MEM_HEADER 256

struct fake_ctx {
	unsigned magic;
	int refs;
};

struct fake_module;

struct fake_func {
	unsigned magic;
	char name[128];
	int nparams;
	int psize[MAX_PARAMS];
	int max_dyn_smem;
	int carveout;
	struct fake_module *mod;
};

struct fake_module {
	unsigned magic;
	unsigned long long hash; /* FNV-1a of the PTX text */
	int nfuncs;
	struct fake_func funcs[MAX_FUNCS];
};

struct fake_stream {
	unsigned magic;
	unsigned flags;
	CUresult pending; /* a fault of a launch, reported by the next sync */
};

struct fake_event {
	unsigned magic;
	unsigned flags;
	int recorded;
	double t;
};

/* mem_header precedes every device allocation; live allocations are
 * linked so that fake_alloc_of and check_dev can find the one holding an
 * address. */
struct mem_header {
	unsigned magic;
	size_t size;
	unsigned long long seq; /* allocation number, for fake_free_since */
	struct mem_header *prev, *next;
};

static struct mem_header *live_mem; /* guarded by mu */
static size_t mem_used;              /* guarded by mu */

/* unlink_mem takes h off the live list and its bytes off mem_used. The
 * caller holds mu. */
static void unlink_mem(struct mem_header *h)
{
	if (h->prev != NULL)
		h->prev->next = h->next;
	else
		live_mem = h->next;
	if (h->next != NULL)
		h->next->prev = h->prev;
	mem_used -= h->size;
}

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int initialized;
static struct fake_ctx primary = {MAGIC_CTX, 0};
static __thread struct fake_ctx *current;

static size_t mem_limit = (size_t)1 << 30;
static long long host_allocs;

static struct {
	void *p;
	size_t n;
} registered[MAX_REG];

static char fail_name[64];
static CUresult fail_code;
static int fail_sticky; /* the injected code becomes the sticky fault */

static CUresult sticky;       /* the context's sticky fault, 0 when none */
static CUresult load_fail;    /* fake_fail_load: code of the next module load */
static char load_log[1024];   /* and its JIT error log */
static int driver_version = 12080;
static long long modules_live;
static unsigned long long alloc_seq;

static double fake_clock_ms;

/* fake_launch_hook runs a launched kernel for a test; see the header. */
typedef int (*fake_launch_hook)(const char *name, unsigned long long modhash, const unsigned *dims,
				const unsigned long long *params, int nparams);
static fake_launch_hook launch_hook;
static CUresult default_pending; /* faults of launches on the NULL stream */

static struct {
	unsigned dims[7];
	void *stream;
	int nparams;
	unsigned long long params[MAX_PARAMS];
	char name[128];
} last_launch;
static long long launch_count;

/* Device attributes of the fake device: an H100-like sm_90 part
 * (fake_set_attr changes them). */
static struct {
	int attr;
	int value;
} attrs[] = {
	{1, 1024},       /* max threads per block */
	{2, 1024},       /* max block dim x */
	{3, 1024},       /* max block dim y */
	{4, 64},         /* max block dim z */
	{5, 2147483647}, /* max grid dim x */
	{6, 65535},      /* max grid dim y */
	{7, 65535},      /* max grid dim z */
	{8, 49152},      /* shared memory per block */
	{9, 65536},      /* total constant memory */
	{10, 32},        /* warp size */
	{12, 65536},     /* registers per block */
	{13, 1980000},   /* clock rate, kHz */
	{16, 132},       /* multiprocessors */
	{19, 1},         /* can map host memory */
	{31, 1},         /* concurrent kernels */
	{36, 2619000},   /* memory clock rate, kHz */
	{37, 5120},      /* global memory bus width, bits */
	{38, 52428800},  /* L2 cache size */
	{39, 2048},      /* max threads per multiprocessor */
	{40, 3},         /* async engines */
	{41, 1},         /* unified addressing */
	{75, 9},         /* compute capability major */
	{76, 0},         /* compute capability minor */
	{81, 233472},    /* shared memory per multiprocessor */
	{82, 65536},     /* registers per multiprocessor */
	{83, 1},         /* managed memory */
	{97, 232448},    /* shared memory per block, opt-in */
	{106, 32},       /* max blocks per multiprocessor */
};

/* Error names and strings the fake knows; some codes are deliberately
 * missing so that callers exercise their own fallback table. */
static const struct {
	CUresult code;
	const char *name;
	const char *str;
} errors[] = {
	{OK, "CUDA_SUCCESS", "no error"},
	{E_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
	{E_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
	{E_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
	{E_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
	{E_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
	{E_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
	{E_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
	{E_INVALID_PTX, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
	{E_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
	{E_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
	{E_NOT_READY, "CUDA_ERROR_NOT_READY", "device not ready"},
	{E_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"},
	{E_LAUNCH_OUT_OF_RESOURCES, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch"},
	{E_HOST_MEMORY_ALREADY_REGISTERED, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED", "part or all of the requested memory range is already mapped"},
	{E_HOST_MEMORY_NOT_REGISTERED, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED", "pointer does not correspond to a registered memory region"},
	{E_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
	{E_UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

/* is_sticky reports whether code leaves the context unusable for the rest
 * of the process, as the driver API documents for each of these codes. */
static int is_sticky(CUresult code)
{
	static const CUresult codes[] = {226, 700, 702, 710, 714, 715, 716, 717, 718, 719, 721, 810, 911};
	for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
		if (codes[i] == code)
			return 1;
	return 0;
}

/* set_sticky records code as the context's sticky fault unless one is
 * recorded already; mu is held. */
static void set_sticky(CUresult code)
{
	if (sticky == OK && is_sticky(code))
		sticky = code;
}

/* injected returns the injected error code if the next call of fn was asked
 * to fail, and clears the request. */
static CUresult injected(const char *fn)
{
	CUresult r = OK;
	pthread_mutex_lock(&mu);
	if (fail_name[0] && strcmp(fail_name, fn) == 0) {
		r = fail_code;
		fail_name[0] = 0;
		if (fail_sticky)
			set_sticky(r);
		fail_sticky = 0;
	}
	pthread_mutex_unlock(&mu);
	return r;
}

static CUresult sticky_fault(void)
{
	pthread_mutex_lock(&mu);
	CUresult r = sticky;
	pthread_mutex_unlock(&mu);
	return r;
}

#define ENTER(fn)                              \
	do {                                   \
		CUresult inj_ = injected(fn);  \
		if (inj_ != OK)                \
			return inj_;           \
		if (!initialized)              \
			return E_NOT_INITIALIZED; \
	} while (0)

#define NEED_CTX()                                                \
	do {                                                      \
		if (current == NULL || current->magic != MAGIC_CTX || \
		    current->refs <= 0)                           \
			return E_INVALID_CONTEXT;                 \
		CUresult st_ = sticky_fault();                    \
		if (st_ != OK)                                    \
			return st_;                               \
	} while (0)

static struct mem_header *header_of(CUdeviceptr p)
{
	if (p == 0)
		return NULL;
	struct mem_header *h = (struct mem_header *)((char *)(uintptr_t)p - MEM_HEADER);
	return h;
}

/* ---- test controls ---- */

void fake_set_mem_limit(size_t n)
{
	pthread_mutex_lock(&mu);
	mem_limit = n;
	pthread_mutex_unlock(&mu);
}

size_t fake_mem_used(void)
{
	pthread_mutex_lock(&mu);
	size_t n = mem_used;
	pthread_mutex_unlock(&mu);
	return n;
}

long long fake_host_allocs(void)
{
	pthread_mutex_lock(&mu);
	long long n = host_allocs;
	pthread_mutex_unlock(&mu);
	return n;
}

void fake_fail_next(const char *fn, int code)
{
	pthread_mutex_lock(&mu);
	snprintf(fail_name, sizeof fail_name, "%s", fn);
	fail_code = code;
	fail_sticky = 0;
	pthread_mutex_unlock(&mu);
}

/* fake_fail_next_sticky makes the next call of fn return code and, when
 * code is a sticky fault, every later call that needs the context too. */
void fake_fail_next_sticky(const char *fn, int code)
{
	pthread_mutex_lock(&mu);
	snprintf(fail_name, sizeof fail_name, "%s", fn);
	fail_code = code;
	fail_sticky = 1;
	pthread_mutex_unlock(&mu);
}

/* fake_sticky_fault returns the context's sticky fault, 0 when none. */
int fake_sticky_fault(void) { return sticky_fault(); }

/* fake_clear_fault ends a sticky fault and drops the pending fault of the
 * default stream. */
void fake_clear_fault(void)
{
	pthread_mutex_lock(&mu);
	sticky = OK;
	default_pending = OK;
	pthread_mutex_unlock(&mu);
}

/* fake_fail_load makes the next cuModuleLoadDataEx fail with code, writing
 * log into the JIT error log buffer. */
void fake_fail_load(int code, const char *log)
{
	pthread_mutex_lock(&mu);
	load_fail = code;
	snprintf(load_log, sizeof load_log, "%s", log);
	pthread_mutex_unlock(&mu);
}

/* fake_set_driver_version sets what cuDriverGetVersion reports. */
void fake_set_driver_version(int v)
{
	pthread_mutex_lock(&mu);
	driver_version = v;
	pthread_mutex_unlock(&mu);
}

/* fake_module_count returns the modules loaded and not yet unloaded. */
long long fake_module_count(void)
{
	pthread_mutex_lock(&mu);
	long long n = modules_live;
	pthread_mutex_unlock(&mu);
	return n;
}

/* fake_alloc_mark returns the number the next device allocation gets. */
unsigned long long fake_alloc_mark(void)
{
	pthread_mutex_lock(&mu);
	unsigned long long n = alloc_seq;
	pthread_mutex_unlock(&mu);
	return n;
}

/* fake_free_since frees every live device allocation numbered mark or
 * later and returns the bytes freed. */
size_t fake_free_since(unsigned long long mark)
{
	size_t n = 0;
	pthread_mutex_lock(&mu);
	struct mem_header *h = live_mem;
	while (h != NULL) {
		struct mem_header *next = h->next;
		if (h->seq >= mark) {
			unlink_mem(h);
			n += h->size;
			h->magic = 0;
			free(h);
		}
		h = next;
	}
	pthread_mutex_unlock(&mu);
	return n;
}

long long fake_launch_count(void)
{
	pthread_mutex_lock(&mu);
	long long n = launch_count;
	pthread_mutex_unlock(&mu);
	return n;
}

/* fake_last_launch copies the last launch: dims gets grid x,y,z, block
 * x,y,z and shared memory bytes (7 values); params gets up to max parameter
 * values; name gets the kernel name. It returns the number of parameters. */
int fake_last_launch(unsigned *dims, unsigned long long *params, int max, char *name, int namelen)
{
	pthread_mutex_lock(&mu);
	memcpy(dims, last_launch.dims, sizeof last_launch.dims);
	int n = last_launch.nparams;
	for (int i = 0; i < n && i < max; i++)
		params[i] = last_launch.params[i];
	snprintf(name, (size_t)namelen, "%s", last_launch.name);
	pthread_mutex_unlock(&mu);
	return n;
}

void *fake_last_stream(void)
{
	pthread_mutex_lock(&mu);
	void *s = last_launch.stream;
	pthread_mutex_unlock(&mu);
	return s;
}

/* fake_current_context reports the context current on the calling thread. */
void *fake_current_context(void) { return current; }

/* fake_set_attr sets device attribute attr to v and returns 1, or returns
 * 0 for an attribute the fake does not report. */
int fake_set_attr(int attr, int v)
{
	int ok = 0;
	pthread_mutex_lock(&mu);
	for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
		if (attrs[i].attr == attr) {
			attrs[i].value = v;
			ok = 1;
		}
	}
	pthread_mutex_unlock(&mu);
	return ok;
}

/* fake_set_launch_hook registers the launch hook (NULL removes it). */
void fake_set_launch_hook(fake_launch_hook fn)
{
	pthread_mutex_lock(&mu);
	launch_hook = fn;
	pthread_mutex_unlock(&mu);
}

/* find_mem returns the live allocation holding address p; mu is held. */
static struct mem_header *find_mem(CUdeviceptr p)
{
	for (struct mem_header *h = live_mem; h != NULL; h = h->next) {
		CUdeviceptr base = (CUdeviceptr)(uintptr_t)((char *)h + MEM_HEADER);
		if (p >= base && p - base < h->size)
			return h;
	}
	return NULL;
}

/* fake_alloc_of finds the live device allocation holding address p: it
 * sets *base to its first byte and *size to its size and returns 1, or
 * returns 0 when no allocation holds p. */
int fake_alloc_of(CUdeviceptr p, void **base, size_t *size)
{
	pthread_mutex_lock(&mu);
	struct mem_header *h = find_mem(p);
	if (h != NULL) {
		*base = (char *)h + MEM_HEADER;
		*size = h->size;
	}
	pthread_mutex_unlock(&mu);
	return h != NULL;
}

/* ---- initialization, version, devices ---- */

CUresult cuInit(unsigned flags)
{
	CUresult r = injected("cuInit");
	if (r != OK)
		return r;
	if (flags != 0)
		return E_INVALID_VALUE;
	pthread_mutex_lock(&mu);
	initialized = 1;
	pthread_mutex_unlock(&mu);
	return OK;
}

CUresult cuDriverGetVersion(int *v)
{
	CUresult r = injected("cuDriverGetVersion");
	if (r != OK)
		return r;
	if (v == NULL)
		return E_INVALID_VALUE;
	pthread_mutex_lock(&mu);
	*v = driver_version;
	pthread_mutex_unlock(&mu);
	return OK;
}

CUresult cuDeviceGetCount(int *n)
{
	ENTER("cuDeviceGetCount");
	if (n == NULL)
		return E_INVALID_VALUE;
	*n = 1;
	return OK;
}

CUresult cuDeviceGet(CUdevice *d, int ordinal)
{
	ENTER("cuDeviceGet");
	if (d == NULL)
		return E_INVALID_VALUE;
	if (ordinal != 0)
		return E_INVALID_DEVICE;
	*d = 0;
	return OK;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice d)
{
	ENTER("cuDeviceGetName");
	if (name == NULL || len <= 0)
		return E_INVALID_VALUE;
	if (d != 0)
		return E_INVALID_DEVICE;
	snprintf(name, (size_t)len, "%s", "Fake GPU");
	return OK;
}

CUresult cuDeviceGetAttribute(int *v, int attr, CUdevice d)
{
	ENTER("cuDeviceGetAttribute");
	if (v == NULL)
		return E_INVALID_VALUE;
	if (d != 0)
		return E_INVALID_DEVICE;
	CUresult r = E_INVALID_VALUE;
	pthread_mutex_lock(&mu);
	for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
		if (attrs[i].attr == attr) {
			*v = attrs[i].value;
			r = OK;
			break;
		}
	}
	pthread_mutex_unlock(&mu);
	return r;
}

CUresult cuDeviceTotalMem_v2(size_t *n, CUdevice d)
{
	ENTER("cuDeviceTotalMem_v2");
	if (n == NULL)
		return E_INVALID_VALUE;
	if (d != 0)
		return E_INVALID_DEVICE;
	pthread_mutex_lock(&mu);
	*n = mem_limit;
	pthread_mutex_unlock(&mu);
	return OK;
}

/* ---- contexts ---- */

CUresult cuDevicePrimaryCtxRetain(void **ctx, CUdevice d)
{
	ENTER("cuDevicePrimaryCtxRetain");
	if (ctx == NULL)
		return E_INVALID_VALUE;
	if (d != 0)
		return E_INVALID_DEVICE;
	pthread_mutex_lock(&mu);
	primary.refs++;
	pthread_mutex_unlock(&mu);
	*ctx = &primary;
	return OK;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice d)
{
	ENTER("cuDevicePrimaryCtxRelease_v2");
	if (d != 0)
		return E_INVALID_DEVICE;
	CUresult r = OK;
	pthread_mutex_lock(&mu);
	if (primary.refs <= 0)
		r = E_INVALID_CONTEXT;
	else
		primary.refs--;
	pthread_mutex_unlock(&mu);
	return r;
}

CUresult cuCtxSetCurrent(void *ctx)
{
	ENTER("cuCtxSetCurrent");
	struct fake_ctx *c = ctx;
	if (c != NULL && c->magic != MAGIC_CTX)
		return E_INVALID_CONTEXT;
	current = c;
	return OK;
}

CUresult cuCtxSynchronize(void)
{
	ENTER("cuCtxSynchronize");
	NEED_CTX();
	pthread_mutex_lock(&mu);
	CUresult r = default_pending;
	default_pending = OK;
	pthread_mutex_unlock(&mu);
	return r;
}

/* ---- memory ---- */

CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n)
{
	ENTER("cuMemAlloc_v2");
	NEED_CTX();
	if (p == NULL || n == 0)
		return E_INVALID_VALUE;
	pthread_mutex_lock(&mu);
	if (n > mem_limit || mem_used > mem_limit - n) {
		pthread_mutex_unlock(&mu);
		return E_OUT_OF_MEMORY;
	}
	mem_used += n;
	pthread_mutex_unlock(&mu);
	void *raw = NULL;
	if (posix_memalign(&raw, MEM_HEADER, MEM_HEADER + n) != 0) {
		pthread_mutex_lock(&mu);
		mem_used -= n;
		pthread_mutex_unlock(&mu);
		return E_OUT_OF_MEMORY;
	}
	struct mem_header *h = raw;
	h->magic = MAGIC_MEM;
	h->size = n;
	/* Fresh device memory holds garbage on a GPU: all ones here (NaN as
	 * floats, -1 as integers), so that reading it before writing shows. */
	memset((char *)raw + MEM_HEADER, 0xff, n);
	pthread_mutex_lock(&mu);
	h->seq = alloc_seq++;
	h->prev = NULL;
	h->next = live_mem;
	if (live_mem != NULL)
		live_mem->prev = h;
	live_mem = h;
	pthread_mutex_unlock(&mu);
	*p = (CUdeviceptr)(uintptr_t)((char *)raw + MEM_HEADER);
	return OK;
}

CUresult cuMemFree_v2(CUdeviceptr p)
{
	ENTER("cuMemFree_v2");
	NEED_CTX();
	struct mem_header *h = header_of(p);
	if (h == NULL || h->magic != MAGIC_MEM)
		return E_INVALID_VALUE;
	h->magic = 0;
	pthread_mutex_lock(&mu);
	unlink_mem(h);
	pthread_mutex_unlock(&mu);
	free(h);
	return OK;
}

CUresult cuMemGetInfo_v2(size_t *free_, size_t *total)
{
	ENTER("cuMemGetInfo_v2");
	NEED_CTX();
	if (free_ == NULL || total == NULL)
		return E_INVALID_VALUE;
	pthread_mutex_lock(&mu);
	*free_ = mem_limit - mem_used;
	*total = mem_limit;
	pthread_mutex_unlock(&mu);
	return OK;
}

CUresult cuMemHostAlloc(void **pp, size_t n, unsigned flags)
{
	ENTER("cuMemHostAlloc");
	NEED_CTX();
	if (pp == NULL || n == 0 || (flags & ~7u) != 0)
		return E_INVALID_VALUE;
	void *p = malloc(n);
	if (p == NULL)
		return E_OUT_OF_MEMORY;
	pthread_mutex_lock(&mu);
	host_allocs++;
	pthread_mutex_unlock(&mu);
	*pp = p;
	return OK;
}

CUresult cuMemFreeHost(void *p)
{
	ENTER("cuMemFreeHost");
	NEED_CTX();
	if (p == NULL)
		return E_INVALID_VALUE;
	pthread_mutex_lock(&mu);
	host_allocs--;
	pthread_mutex_unlock(&mu);
	free(p);
	return OK;
}

CUresult cuMemHostRegister_v2(void *p, size_t n, unsigned flags)
{
	ENTER("cuMemHostRegister_v2");
	NEED_CTX();
	if (p == NULL || n == 0 || (flags & ~15u) != 0)
		return E_INVALID_VALUE;
	CUresult r = E_OUT_OF_MEMORY;
	pthread_mutex_lock(&mu);
	for (int i = 0; i < MAX_REG; i++) {
		if (registered[i].p != NULL && (char *)p < (char *)registered[i].p + registered[i].n &&
		    (char *)registered[i].p < (char *)p + n) {
			r = E_HOST_MEMORY_ALREADY_REGISTERED;
			break;
		}
	}
	if (r == E_OUT_OF_MEMORY) {
		for (int i = 0; i < MAX_REG; i++) {
			if (registered[i].p == NULL) {
				registered[i].p = p;
				registered[i].n = n;
				r = OK;
				break;
			}
		}
	}
	pthread_mutex_unlock(&mu);
	return r;
}

CUresult cuMemHostUnregister(void *p)
{
	ENTER("cuMemHostUnregister");
	NEED_CTX();
	CUresult r = E_HOST_MEMORY_NOT_REGISTERED;
	pthread_mutex_lock(&mu);
	for (int i = 0; i < MAX_REG; i++) {
		if (p != NULL && registered[i].p == p) {
			registered[i].p = NULL;
			registered[i].n = 0;
			r = OK;
			break;
		}
	}
	pthread_mutex_unlock(&mu);
	return r;
}

static CUresult check_stream(void *s)
{
	struct fake_stream *st = s;
	if (st != NULL && st->magic != MAGIC_STREAM)
		return E_INVALID_HANDLE;
	return OK;
}

/* check_dev reports whether [p, p+n) lies inside one live allocation. */
static CUresult check_dev(CUdeviceptr p, size_t n)
{
	if (p == 0)
		return E_INVALID_VALUE;
	if (n == 0)
		return OK;
	CUresult r = E_INVALID_VALUE;
	pthread_mutex_lock(&mu);
	struct mem_header *h = find_mem(p);
	if (h != NULL && n <= h->size - (p - (CUdeviceptr)(uintptr_t)((char *)h + MEM_HEADER)))
		r = OK;
	pthread_mutex_unlock(&mu);
	return r;
}

static void tick(double ms)
{
	pthread_mutex_lock(&mu);
	fake_clock_ms += ms;
	pthread_mutex_unlock(&mu);
}

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n, void *s)
{
	ENTER("cuMemcpyHtoDAsync_v2");
	NEED_CTX();
	if (check_stream(s) != OK)
		return E_INVALID_HANDLE;
	if (src == NULL || check_dev(dst, n) != OK)
		return E_INVALID_VALUE;
	memcpy((void *)(uintptr_t)dst, src, n);
	tick(0.01);
	return OK;
}

CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n, void *s)
{
	ENTER("cuMemcpyDtoHAsync_v2");
	NEED_CTX();
	if (check_stream(s) != OK)
		return E_INVALID_HANDLE;
	if (dst == NULL || check_dev(src, n) != OK)
		return E_INVALID_VALUE;
	memcpy(dst, (void *)(uintptr_t)src, n);
	tick(0.01);
	return OK;
}

CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, void *s)
{
	ENTER("cuMemcpyDtoDAsync_v2");
	NEED_CTX();
	if (check_stream(s) != OK)
		return E_INVALID_HANDLE;
	if (check_dev(dst, n) != OK || check_dev(src, n) != OK)
		return E_INVALID_VALUE;
	memmove((void *)(uintptr_t)dst, (void *)(uintptr_t)src, n);
	tick(0.01);
	return OK;
}

CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned v, size_t count, void *s)
{
	ENTER("cuMemsetD32Async");
	NEED_CTX();
	if (check_stream(s) != OK)
		return E_INVALID_HANDLE;
	if (check_dev(dst, count * 4) != OK || (dst & 3) != 0)
		return E_INVALID_VALUE;
	unsigned *p = (unsigned *)(uintptr_t)dst;
	for (size_t i = 0; i < count; i++)
		p[i] = v;
	return OK;
}

CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char v, size_t count, void *s)
{
	ENTER("cuMemsetD8Async");
	NEED_CTX();
	if (check_stream(s) != OK)
		return E_INVALID_HANDLE;
	if (check_dev(dst, count) != OK)
		return E_INVALID_VALUE;
	memset((void *)(uintptr_t)dst, v, count);
	return OK;
}

/* ---- modules ---- */

enum {
	JIT_WALL_TIME = 2,
	JIT_INFO_LOG_BUFFER = 3,
	JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
	JIT_ERROR_LOG_BUFFER = 5,
	JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static int is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}

/* type_bytes returns the size of a PTX scalar type token such as .u64. */
static int type_bytes(const char *p)
{
	while (*p && (*p < '0' || *p > '9') && *p != ' ' && *p != ',')
		p++;
	int bits = atoi(p);
	return bits > 0 ? bits / 8 : 0;
}

/* parse_params reads the parameter list starting after '(' and fills f. */
static void parse_params(const char *p, struct fake_func *f)
{
	const char *end = strchr(p, ')');
	if (end == NULL)
		return;
	while (f->nparams < MAX_PARAMS) {
		const char *q = strstr(p, ".param");
		if (q == NULL || q > end)
			break;
		q = skip_space(q + 6);
		int size;
		if (strncmp(q, ".align", 6) == 0) {
			/* .param .align N .b8 name[K] */
			q = skip_space(q + 6);
			while (*q >= '0' && *q <= '9')
				q++;
			q = skip_space(q);
			int elem = type_bytes(q);
			const char *br = strchr(q, '[');
			size = (br != NULL && br < end) ? elem * atoi(br + 1) : elem;
		} else {
			size = type_bytes(q);
		}
		f->psize[f->nparams++] = size;
		p = q;
	}
}

static void put_log(unsigned n, const int *opts, void **vals, int buf_opt, int size_opt, const char *msg)
{
	char *buf = NULL;
	size_t cap = 0;
	int size_at = -1;
	for (unsigned i = 0; i < n; i++) {
		if (opts[i] == buf_opt)
			buf = vals[i];
		if (opts[i] == size_opt) {
			cap = (size_t)(uintptr_t)vals[i];
			size_at = (int)i;
		}
	}
	if (buf == NULL || cap == 0)
		return;
	int w = snprintf(buf, cap, "%s", msg);
	size_t used = (size_t)w + 1 < cap ? (size_t)w + 1 : cap;
	if (size_at >= 0)
		vals[size_at] = (void *)(uintptr_t)used;
}

CUresult cuModuleLoadDataEx(void **mod, const void *image, unsigned n, int *opts, void **vals)
{
	ENTER("cuModuleLoadDataEx");
	NEED_CTX();
	if (mod == NULL || image == NULL || (n > 0 && (opts == NULL || vals == NULL)))
		return E_INVALID_VALUE;
	const char *ptx = image;
	pthread_mutex_lock(&mu);
	CUresult lf = load_fail;
	char llog[sizeof load_log];
	memcpy(llog, load_log, sizeof llog);
	load_fail = OK;
	pthread_mutex_unlock(&mu);
	if (lf != OK) {
		put_log(n, opts, vals, JIT_ERROR_LOG_BUFFER, JIT_ERROR_LOG_BUFFER_SIZE_BYTES, llog);
		return lf;
	}
	const char *marker = strstr(ptx, "FAKE_JIT_ERROR");
	if (marker != NULL) {
		int line = 1;
		for (const char *c = ptx; c < marker; c++)
			if (*c == '\n')
				line++;
		char msg[256];
		snprintf(msg, sizeof msg, "ptxas application ptx input, line %d; error   : Unknown symbol 'FAKE_JIT_ERROR'\nptxas fatal   : Ptx assembly aborted due to errors", line);
		put_log(n, opts, vals, JIT_ERROR_LOG_BUFFER, JIT_ERROR_LOG_BUFFER_SIZE_BYTES, msg);
		return E_INVALID_PTX;
	}
	if (strstr(ptx, ".version") == NULL || strstr(ptx, ".target") == NULL)
		return E_INVALID_IMAGE;
	struct fake_module *m = calloc(1, sizeof *m);
	if (m == NULL)
		return E_OUT_OF_MEMORY;
	m->magic = MAGIC_MOD;
	m->hash = 14695981039346656037ull;
	for (const unsigned char *c = (const unsigned char *)ptx; *c; c++)
		m->hash = (m->hash ^ *c) * 1099511628211ull;
	const char *p = ptx;
	while ((p = strstr(p, ".entry")) != NULL && m->nfuncs < MAX_FUNCS) {
		p = skip_space(p + 6);
		struct fake_func *f = &m->funcs[m->nfuncs++];
		f->magic = MAGIC_FUNC;
		f->mod = m;
		f->max_dyn_smem = 49152;
		int k = 0;
		while (is_ident(*p) && k < (int)sizeof f->name - 1)
			f->name[k++] = *p++;
		f->name[k] = 0;
		p = skip_space(p);
		if (*p == '(')
			parse_params(p + 1, f);
	}
	char info[128];
	snprintf(info, sizeof info, "info    : fake JIT compiled %d entry function(s) for sm_90", m->nfuncs);
	put_log(n, opts, vals, JIT_INFO_LOG_BUFFER, JIT_INFO_LOG_BUFFER_SIZE_BYTES, info);
	for (unsigned i = 0; i < n; i++) {
		if (opts[i] == JIT_WALL_TIME) {
			float ms = 1.5f;
			uintptr_t bits = 0;
			memcpy(&bits, &ms, sizeof ms);
			vals[i] = (void *)bits;
		}
	}
	pthread_mutex_lock(&mu);
	modules_live++;
	pthread_mutex_unlock(&mu);
	*mod = m;
	return OK;
}

CUresult cuModuleGetFunction(void **fn, void *mod, const char *name)
{
	ENTER("cuModuleGetFunction");
	NEED_CTX();
	struct fake_module *m = mod;
	if (fn == NULL || name == NULL)
		return E_INVALID_VALUE;
	if (m == NULL || m->magic != MAGIC_MOD)
		return E_INVALID_HANDLE;
	for (int i = 0; i < m->nfuncs; i++) {
		if (strcmp(m->funcs[i].name, name) == 0) {
			*fn = &m->funcs[i];
			return OK;
		}
	}
	return E_NOT_FOUND;
}

CUresult cuModuleUnload(void *mod)
{
	ENTER("cuModuleUnload");
	NEED_CTX();
	struct fake_module *m = mod;
	if (m == NULL || m->magic != MAGIC_MOD)
		return E_INVALID_HANDLE;
	m->magic = 0;
	for (int i = 0; i < m->nfuncs; i++)
		m->funcs[i].magic = 0;
	free(m);
	pthread_mutex_lock(&mu);
	modules_live--;
	pthread_mutex_unlock(&mu);
	return OK;
}

enum {
	FA_MAX_THREADS_PER_BLOCK = 0,
	FA_SHARED_SIZE_BYTES = 1,
	FA_CONST_SIZE_BYTES = 2,
	FA_LOCAL_SIZE_BYTES = 3,
	FA_NUM_REGS = 4,
	FA_PTX_VERSION = 5,
	FA_BINARY_VERSION = 6,
	FA_CACHE_MODE_CA = 7,
	FA_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
	FA_PREFERRED_SHARED_MEMORY_CARVEOUT = 9,
};

#define FAKE_REGS 32

CUresult cuFuncGetAttribute(int *v, int attr, void *fn)
{
	ENTER("cuFuncGetAttribute");
	struct fake_func *f = fn;
	if (v == NULL)
		return E_INVALID_VALUE;
	if (f == NULL || f->magic != MAGIC_FUNC)
		return E_INVALID_HANDLE;
	switch (attr) {
	case FA_MAX_THREADS_PER_BLOCK: *v = 1024; break;
	case FA_SHARED_SIZE_BYTES: *v = 0; break;
	case FA_CONST_SIZE_BYTES: *v = 0; break;
	case FA_LOCAL_SIZE_BYTES: *v = 0; break;
	case FA_NUM_REGS: *v = FAKE_REGS; break;
	case FA_PTX_VERSION: *v = 90; break;
	case FA_BINARY_VERSION: *v = 90; break;
	case FA_CACHE_MODE_CA: *v = 0; break;
	case FA_MAX_DYNAMIC_SHARED_SIZE_BYTES: *v = f->max_dyn_smem; break;
	case FA_PREFERRED_SHARED_MEMORY_CARVEOUT: *v = f->carveout; break;
	default: return E_INVALID_VALUE;
	}
	return OK;
}

CUresult cuFuncSetAttribute(void *fn, int attr, int v)
{
	ENTER("cuFuncSetAttribute");
	struct fake_func *f = fn;
	if (f == NULL || f->magic != MAGIC_FUNC)
		return E_INVALID_HANDLE;
	switch (attr) {
	case FA_MAX_DYNAMIC_SHARED_SIZE_BYTES:
		if (v < 0 || v > 232448)
			return E_INVALID_VALUE;
		f->max_dyn_smem = v;
		return OK;
	case FA_PREFERRED_SHARED_MEMORY_CARVEOUT:
		if (v < -1 || v > 100)
			return E_INVALID_VALUE;
		f->carveout = v;
		return OK;
	default:
		return E_INVALID_VALUE;
	}
}

static int min_int(int a, int b) { return a < b ? a : b; }

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, void *fn, int block, size_t dyn)
{
	ENTER("cuOccupancyMaxActiveBlocksPerMultiprocessor");
	NEED_CTX();
	struct fake_func *f = fn;
	if (n == NULL || block <= 0 || block > 1024)
		return E_INVALID_VALUE;
	if (f == NULL || f->magic != MAGIC_FUNC)
		return E_INVALID_HANDLE;
	int warps = (block + 31) / 32;
	int blocks = min_int(2048 / (warps * 32), 32);
	blocks = min_int(blocks, 65536 / (FAKE_REGS * warps * 32));
	if (dyn > 0)
		blocks = min_int(blocks, (int)(233472 / (dyn + 1024)));
	*n = blocks;
	return OK;
}

/* ---- launches ---- */

#ifndef FAKE_OMIT_LAUNCH
static unsigned long long read_param(void *p, int size)
{
	unsigned long long v = 0;
	if (size > 8)
		size = 8;
	memcpy(&v, p, (size_t)size);
	return v;
}

CUresult cuLaunchKernel(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
			unsigned bz, unsigned smem, void *s, void **params, void **extra)
{
	ENTER("cuLaunchKernel");
	NEED_CTX();
	struct fake_func *f = fn;
	if (f == NULL || f->magic != MAGIC_FUNC || check_stream(s) != OK)
		return E_INVALID_HANDLE;
	if (gx == 0 || gy == 0 || gz == 0 || bx == 0 || by == 0 || bz == 0 || extra != NULL)
		return E_INVALID_VALUE;
	if (bx > 1024 || by > 1024 || bz > 64 || (unsigned long long)bx * by * bz > 1024 || gy > 65535 || gz > 65535)
		return E_INVALID_VALUE;
	if ((int)smem > f->max_dyn_smem)
		return E_INVALID_VALUE;
	if (f->nparams > 0 && params == NULL)
		return E_INVALID_VALUE;
	unsigned long long vals[MAX_PARAMS];
	for (int i = 0; i < f->nparams; i++)
		vals[i] = read_param(params[i], f->psize[i]);
	pthread_mutex_lock(&mu);
	unsigned dims[7] = {gx, gy, gz, bx, by, bz, smem};
	memcpy(last_launch.dims, dims, sizeof dims);
	last_launch.stream = s;
	last_launch.nparams = f->nparams;
	memcpy(last_launch.params, vals, sizeof(vals[0]) * (size_t)f->nparams);
	snprintf(last_launch.name, sizeof last_launch.name, "%s", f->name);
	launch_count++;
	fake_clock_ms += 0.125;
	fake_launch_hook hook = launch_hook;
	pthread_mutex_unlock(&mu);

	unsigned long long threads = (unsigned long long)gx * gy * gz * bx * by * bz;
	if (strcmp(f->name, "fake_add") == 0 && f->nparams == 4) {
		int *a = (int *)(uintptr_t)vals[0], *b = (int *)(uintptr_t)vals[1], *c = (int *)(uintptr_t)vals[2];
		unsigned n = (unsigned)vals[3];
		if (a == NULL || b == NULL || c == NULL)
			return E_ILLEGAL_ADDRESS;
		for (unsigned i = 0; i < n && i < threads; i++)
			c[i] = a[i] + b[i];
	} else if (strcmp(f->name, "fake_axpy") == 0 && f->nparams == 4) {
		float alpha;
		unsigned bits = (unsigned)vals[0];
		memcpy(&alpha, &bits, sizeof alpha);
		float *x = (float *)(uintptr_t)vals[1], *y = (float *)(uintptr_t)vals[2];
		unsigned n = (unsigned)vals[3];
		if (x == NULL || y == NULL)
			return E_ILLEGAL_ADDRESS;
		for (unsigned i = 0; i < n && i < threads; i++)
			y[i] = alpha * x[i] + y[i];
	} else if (hook != NULL) {
		CUresult fault = hook(f->name, f->mod->hash, dims, vals, f->nparams);
		if (fault != OK) {
			pthread_mutex_lock(&mu);
			CUresult *pending = s != NULL ? &((struct fake_stream *)s)->pending : &default_pending;
			if (*pending == OK)
				*pending = fault;
			set_sticky(fault);
			pthread_mutex_unlock(&mu);
		}
	}
	return OK;
}
#endif

/* ---- streams and events ---- */

CUresult cuStreamCreate(void **s, unsigned flags)
{
	ENTER("cuStreamCreate");
	NEED_CTX();
	if (s == NULL || flags > 1)
		return E_INVALID_VALUE;
	struct fake_stream *st = malloc(sizeof *st);
	if (st == NULL)
		return E_OUT_OF_MEMORY;
	st->magic = MAGIC_STREAM;
	st->flags = flags;
	st->pending = OK;
	*s = st;
	return OK;
}

CUresult cuStreamDestroy_v2(void *s)
{
	ENTER("cuStreamDestroy_v2");
	NEED_CTX();
	struct fake_stream *st = s;
	if (st == NULL || st->magic != MAGIC_STREAM)
		return E_INVALID_HANDLE;
	st->magic = 0;
	free(st);
	return OK;
}

/* take_pending returns and clears the pending fault of stream s. */
static CUresult take_pending(void *s)
{
	pthread_mutex_lock(&mu);
	CUresult *pending = s != NULL ? &((struct fake_stream *)s)->pending : &default_pending;
	CUresult r = *pending;
	*pending = OK;
	pthread_mutex_unlock(&mu);
	return r;
}

CUresult cuStreamSynchronize(void *s)
{
	ENTER("cuStreamSynchronize");
	NEED_CTX();
	CUresult r = check_stream(s);
	if (r != OK)
		return r;
	return take_pending(s);
}

CUresult cuEventCreate(void **e, unsigned flags)
{
	ENTER("cuEventCreate");
	NEED_CTX();
	if (e == NULL || (flags & ~7u) != 0)
		return E_INVALID_VALUE;
	struct fake_event *ev = calloc(1, sizeof *ev);
	if (ev == NULL)
		return E_OUT_OF_MEMORY;
	ev->magic = MAGIC_EVENT;
	ev->flags = flags;
	*e = ev;
	return OK;
}

CUresult cuEventRecord(void *e, void *s)
{
	ENTER("cuEventRecord");
	NEED_CTX();
	struct fake_event *ev = e;
	if (ev == NULL || ev->magic != MAGIC_EVENT || check_stream(s) != OK)
		return E_INVALID_HANDLE;
	pthread_mutex_lock(&mu);
	ev->recorded = 1;
	ev->t = fake_clock_ms;
	pthread_mutex_unlock(&mu);
	return OK;
}

CUresult cuEventSynchronize(void *e)
{
	ENTER("cuEventSynchronize");
	NEED_CTX();
	struct fake_event *ev = e;
	if (ev == NULL || ev->magic != MAGIC_EVENT)
		return E_INVALID_HANDLE;
	return OK;
}

CUresult cuEventElapsedTime(float *ms, void *start, void *end)
{
	ENTER("cuEventElapsedTime");
	NEED_CTX();
	struct fake_event *a = start, *b = end;
	if (ms == NULL)
		return E_INVALID_VALUE;
	if (a == NULL || b == NULL || a->magic != MAGIC_EVENT || b->magic != MAGIC_EVENT)
		return E_INVALID_HANDLE;
	if (((a->flags | b->flags) & 2) != 0 || !a->recorded || !b->recorded)
		return E_INVALID_HANDLE;
	pthread_mutex_lock(&mu);
	*ms = (float)(b->t - a->t);
	pthread_mutex_unlock(&mu);
	return OK;
}

CUresult cuEventDestroy_v2(void *e)
{
	ENTER("cuEventDestroy_v2");
	NEED_CTX();
	struct fake_event *ev = e;
	if (ev == NULL || ev->magic != MAGIC_EVENT)
		return E_INVALID_HANDLE;
	ev->magic = 0;
	free(ev);
	return OK;
}

/* ---- error names ---- */

/* error_text sets *s to the name (name != 0) or the description of code. */
static CUresult error_text(CUresult code, const char **s, int name)
{
	if (s == NULL)
		return E_INVALID_VALUE;
	for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
		if (errors[i].code == code) {
			*s = name ? errors[i].name : errors[i].str;
			return OK;
		}
	}
	*s = NULL;
	return E_INVALID_VALUE;
}

CUresult cuGetErrorName(CUresult code, const char **s) { return error_text(code, s, 1); }

CUresult cuGetErrorString(CUresult code, const char **s) { return error_text(code, s, 0); }
