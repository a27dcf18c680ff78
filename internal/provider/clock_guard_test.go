package provider

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"
)

// TestOracleWorldsUseTheirOwnWindow: a test on the oracle's cloud (newWorld, which starts at
// oracleStartHour whatever the real hour) takes its maintenance window from oracleWindow. One reckoned
// from the real clock (realClockWindow) is open at the oracle's start during one hour of each day, and
// the suite failed in CI between 04:00Z and 05:00Z when it was.
func TestOracleWorldsUseTheirOwnWindow(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			var onOracleClock bool
			var realWindows []token.Pos
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.SelectorExpr:
					onOracleClock = onOracleClock || n.Sel.Name == "newWorld"
				case *ast.Ident:
					if n.Name == "realClockWindow" {
						realWindows = append(realWindows, n.Pos())
					}
				}
				return true
			})
			for _, pos := range realWindows {
				if onOracleClock || fn.Name.Name == "inWindow" {
					t.Errorf("%s: %s runs on the oracle's clock but takes realClockWindow; use oracleWindow", fset.Position(pos), fn.Name.Name)
				}
			}
		}
	}
}
