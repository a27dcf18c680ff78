package rdsservice

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// Each file suffix means one thing (internal/README.md): every executor method lives in an
// executor file (executor.go, executor_*.go) and every programBuilder method in a program file
// (program.go, *_program.go), so a _rules file holds neither.
func TestFileSuffixesHold(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil {
				continue
			}
			star, ok := fn.Recv.List[0].Type.(*ast.StarExpr)
			if !ok {
				continue
			}
			switch recv, _ := star.X.(*ast.Ident); {
			case recv == nil:
			case recv.Name == "executor" && !strings.HasPrefix(name, "executor"):
				t.Errorf("%s: executor.%s belongs in an executor file (executor_<area>.go)", fset.Position(fn.Pos()), fn.Name.Name)
			case recv.Name == "programBuilder" && name != "program.go" && !strings.HasSuffix(name, "_program.go"):
				t.Errorf("%s: programBuilder.%s belongs in a program file (<area>_program.go)", fset.Position(fn.Pos()), fn.Name.Name)
			}
		}
	}
}
