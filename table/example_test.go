package table_test

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	arrowarray "github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	_ "github.com/fuseflow/fuseflow/exec/all"
	"github.com/fuseflow/fuseflow/table"
)

func Example() {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "price", Type: arrow.PrimitiveTypes.Float64},
		{Name: "qty", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	}, nil)
	b := arrowarray.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*arrowarray.Float64Builder).AppendValues([]float64{10, 20, 30, 40}, nil)
	b.Field(1).(*arrowarray.Int64Builder).AppendValues([]int64{1, 2, 0, 4}, []bool{true, true, false, true})
	rec := b.NewRecord()
	defer rec.Release()

	t, _ := table.FromRecord(rec)
	defer t.Release()
	notional := table.Col("price").Mul(table.Col("qty"))
	res, err := t.Eval(context.Background(),
		table.Sum(notional).As("notional"), table.Count(table.Col("qty")).As("trades"),
		table.Sum(notional).Div(table.Sum(table.Col("qty"))).As("vwap"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer res.Release()
	for i, f := range res.Schema().Fields() {
		c, _ := res.Column(f.Name)
		fmt.Println(f.Name, c.Chunk(0), i)
	}
	// Output:
	// notional [210] 0
	// trades [3] 1
	// vwap [30] 2
}
