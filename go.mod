module github.com/fuseflow/fuseflow

go 1.26.0

require (
	github.com/apache/arrow-go/v18 v18.8.0
	github.com/ebitengine/purego v0.11.3
	github.com/klauspost/cpuid/v2 v2.4.0
	github.com/mmcloughlin/avo v0.5.0
	github.com/stretchr/testify v1.12.1
	golang.org/x/sys v0.49.0
	golang.org/x/tools v0.52.0
	gonum.org/v1/gonum v0.17.0
)

require (
	github.com/goccy/go-json v0.10.6 // indirect
	github.com/google/flatbuffers v25.12.19+incompatible // indirect
	github.com/zeebo/xxh3 v1.1.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/exp v0.0.0-20260112195511-716be5621a96 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
)
