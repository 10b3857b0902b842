package main

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// GenerateProgram turns a program written in PCL, Pulumi's own program language, into TypeScript
// with Pulumi's Node.js program generator: what `pulumi import` writes after importing resources
// (and `pulumi convert --language typescript`). Packages the program uses are read through the
// CLI's schema loader; parse, bind and generation problems come back as diagnostics, as the CLI
// expects, and stop the generation when they are errors.
func (h *host) GenerateProgram(
	ctx context.Context, req *pulumirpc.GenerateProgramRequest,
) (*pulumirpc.GenerateProgramResponse, error) {
	loader, closeLoader, err := engineLoader(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer closeLoader()

	parser := syntax.NewParser()
	names := make([]string, 0, len(req.GetSource()))
	for name := range req.GetSource() {
		names = append(names, name)
	}
	sort.Strings(names) // the same program the same way every time
	for _, name := range names {
		if err := parser.ParseFile(strings.NewReader(req.GetSource()[name]), name); err != nil {
			return nil, fmt.Errorf("reading the program's file %s: %w", name, err)
		}
	}
	if parser.Diagnostics.HasErrors() {
		return &pulumirpc.GenerateProgramResponse{
			Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(parser.Diagnostics),
		}, nil
	}

	var options []pcl.BindOption
	if !req.GetStrict() {
		options = pcl.NonStrictBindOptions()
	}
	program, diags, err := pcl.BindProgram(parser.Files, loader, options...)
	if err != nil && !diags.HasErrors() {
		return nil, fmt.Errorf("binding the program: %w", err)
	}
	if diags.HasErrors() || program == nil {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
	}

	files, genDiags, err := nodejs.GenerateProgram(program)
	if err != nil {
		return nil, fmt.Errorf("generating TypeScript: %w", err)
	}
	diags = append(diags, genDiags...)
	return &pulumirpc.GenerateProgramResponse{
		Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags),
		Source:      files,
	}, nil
}
