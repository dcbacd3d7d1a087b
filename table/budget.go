// Memory budgets: the allocator a scan reads and computes with (limited
// to the budget, counting its peak), and the batch size a budget allows.

package table

import (
	"fmt"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
)

// peakAllocator forwards to another allocator, counting the bytes live
// and the most that were live at once. Safe for concurrent use when the
// allocator it wraps is.
type peakAllocator struct {
	inner      memory.Allocator
	live, peak atomic.Int64
}

func (p *peakAllocator) add(n int64) {
	v := p.live.Add(n)
	for {
		old := p.peak.Load()
		if v <= old || p.peak.CompareAndSwap(old, v) {
			return
		}
	}
}

// Allocate forwards to the wrapped allocator.
func (p *peakAllocator) Allocate(size int) []byte {
	b := p.inner.Allocate(size)
	p.add(int64(len(b)))
	return b
}

// Reallocate forwards to the wrapped allocator; while it copies, both
// sizes count.
func (p *peakAllocator) Reallocate(size int, b []byte) []byte {
	old := int64(len(b))
	p.add(int64(size))
	out := p.inner.Reallocate(size, b)
	p.add(-old)
	return out
}

// Free forwards to the wrapped allocator.
func (p *peakAllocator) Free(b []byte) {
	p.inner.Free(b)
	p.add(-int64(len(b)))
}

// AllocLimit reports the wrapped allocator's limit on one allocation.
func (p *peakAllocator) AllocLimit() int64 { return exec.AllocLimit(p.inner) }

// MemoryBudget reports the wrapped allocator's budget, if any.
func (p *peakAllocator) MemoryBudget() (limit, inUse int64) {
	if b, ok := p.inner.(exec.Budget); ok {
		return b.MemoryBudget()
	}
	return 0, p.live.Load()
}

// Fixed costs of reading a batch that do not grow with its rows: the
// read buffer of each Parquet column and one decoded page of it (pages
// are 1 MiB by default in arrow-go's writer and most others).
const (
	readBufferSize  = 64 << 10
	pageAllowance   = 1 << 20
	minBatchRows    = 1024
	defaultMaxBatch = 1 << 20
)

// batchRowsFor returns the rows per batch that keep a scan within budget:
// the fixed reading costs of cols columns, then for every row its input
// bytes (values and validity masks, counted three times: the decoded
// batch, the masks unpacked from it, the kernels' intermediates) and its
// output bytes (twice: the result and its Arrow copy). budget <= 0 means
// no budget: max rows, or defaultMaxBatch.
func batchRowsFor(budget int64, cols int, inBytes, outBytes int, maxRows int) (int, error) {
	if maxRows <= 0 {
		maxRows = defaultMaxBatch
	}
	if budget <= 0 {
		return maxRows, nil
	}
	fixed := int64(cols) * (readBufferSize + pageAllowance)
	perRow := int64(3*inBytes + 2*outBytes + 8)
	rows := (budget - fixed) / perRow
	if rows < minBatchRows {
		return 0, fmt.Errorf("memory budget of %s is too small: a batch of %d rows over %d columns needs about %s",
			exec.FormatBytes(budget), minBatchRows, cols, exec.FormatBytes(fixed+minBatchRows*perRow))
	}
	return int(min(rows/minBatchRows*minBatchRows, int64(maxRows))), nil
}
