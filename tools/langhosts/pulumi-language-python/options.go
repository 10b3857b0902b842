package main

import (
	"fmt"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/pulumi/pulumi/sdk/v3/python/toolchain"
)

// toolchainOf resolves the Python toolchain of a program from its runtime options (runtime:
// {name: python, options: {virtualenv: venv, toolchain: pip}}), as Pulumi's host does: the
// virtualenv is relative to the project's root; with no toolchain named, a uv.lock or poetry.lock
// picks uv or Poetry, else pip, and pip without a virtualenv runs the first python3 on PATH.
func toolchainOf(info *pulumirpc.ProgramInfo) (toolchain.Toolchain, error) {
	m := info.GetOptions().AsMap()
	opts := toolchain.PythonOptions{Root: info.GetRootDirectory(), ProgramDir: info.GetProgramDirectory()}
	if opts.Root == "" {
		opts.Root = opts.ProgramDir
	}
	if v, ok := m["virtualenv"].(string); ok {
		opts.Virtualenv = v
	}
	name, _ := m["toolchain"].(string)
	switch name {
	case "", "auto":
		opts.Toolchain = toolchain.Auto
	case "pip":
		opts.Toolchain = toolchain.Pip
	case "poetry":
		opts.Toolchain = toolchain.Poetry
	case "uv":
		opts.Toolchain = toolchain.Uv
	default:
		return nil, fmt.Errorf("unsupported toolchain option %q: use pip, poetry or uv", name)
	}
	return toolchain.ResolveToolchain(opts)
}
