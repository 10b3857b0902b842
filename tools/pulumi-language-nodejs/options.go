package main

import (
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// options are the runtime options of Pulumi.yaml (runtime: {name: nodejs, options: {...}}).
type options struct {
	typescript     bool
	tsconfig       string
	nodeargs       []string
	packagemanager string
}

// parseOptions reads the runtime options of a request, with the CLI's defaults: TypeScript on,
// npm as the package manager ("auto" also means npm: only npm is supported here).
func parseOptions(info *pulumirpc.ProgramInfo) options {
	opts := options{typescript: true, packagemanager: "npm"}
	m := info.GetOptions().AsMap()
	if v, ok := m["typescript"].(bool); ok {
		opts.typescript = v
	}
	if v, ok := m["tsconfig"].(string); ok {
		opts.tsconfig = v
	}
	if v, ok := m["nodeargs"].(string); ok {
		opts.nodeargs = strings.Fields(v) // no shell quoting support
	}
	if v, ok := m["packagemanager"].(string); ok && v != "" && v != "auto" {
		opts.packagemanager = v
	}
	return opts
}

// env holds the variables through which @pulumi/pulumi's entry points take these options.
func (o options) env() []string {
	var env []string
	if o.typescript {
		env = append(env, "PULUMI_NODEJS_TYPESCRIPT=true")
	}
	if o.tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+o.tsconfig)
	}
	return env
}
