package provider

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// configReaders are the apply functions that read req.Config, and why they may. Everything else
// an apply does comes from the plan (issue 39 §1: under ignore_changes the configuration holds
// values no plan named); TestApplyReadsNoConfiguration fails on any other read.
var configReaders = map[string]string{
	// Terraform applies no ignore_changes to an object that does not exist yet, and the final plan
	// at apply saw every value known: a create's configuration is its plan's. The framework gives
	// Create no planned private state to record "unset" in.
	"createInstance":                       "a create",
	"(*instanceResource).incompleteCreate": "a create",
	"(*backupResource).Create":             "a create (the journal key)",
	"(*parameterGroupResource).Create":     "a create (the journal key)",
	"(*dbProxyEndpointResource).Create":    "a create (the journal key)",
	"(*dbProxyResource).Create":            "a create (the journal key)",
	// An action has a configuration and nothing else: InvokeRequest carries no plan.
	"(*backupNowAction).Invoke": "an action",
	"(*actionData).invoke":      "an action",
}

// writeOnlyReaders take from the configuration only the write-only values Terraform never plans.
var writeOnlyReaders = []string{"withWriteOnlyPassword"}

// applyFunctions are the functions the framework's Create, Update, Delete and Invoke run through.
var applyFunctions = []string{"Create", "Update", "Delete", "Invoke", "createInstance", "updateInstance", "incompleteCreate", "invoke"}

func TestApplyReadsNoConfiguration(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	seen := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || !slices.Contains(applyFunctions, fn.Name.Name) {
				continue
			}
			for _, pos := range configReads(fn) {
				key := funcKey(fn)
				if _, ok := configReaders[key]; !ok {
					t.Errorf("%s: %s reads req.Config; an apply takes its values from the plan (planned_config.go)", fset.Position(pos), key)
				}
				seen[key] = true
			}
		}
	}
	for key, why := range configReaders {
		if !seen[key] {
			t.Errorf("configReaders lists %s (%s), which no longer reads req.Config: remove it", key, why)
		}
	}
}

// configReads are the positions of req.Config in fn, but as an argument of a writeOnlyReaders call.
func configReads(fn *ast.FuncDecl) []token.Pos {
	allowed := map[ast.Node]bool{}
	var out []token.Pos
	ast.Inspect(fn, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && slices.Contains(writeOnlyReaders, id.Name) {
				for _, arg := range call.Args {
					allowed[arg] = true
				}
			}
		}
		if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Config" && !allowed[sel] {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "req" {
				out = append(out, sel.Pos())
			}
		}
		return true
	})
	return out
}

// funcKey names fn as "name" or "(*Recv).name".
func funcKey(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	recv := fn.Recv.List[0].Type
	star := ""
	if s, ok := recv.(*ast.StarExpr); ok {
		recv, star = s.X, "*"
	}
	if idx, ok := recv.(*ast.IndexExpr); ok {
		recv = idx.X
	}
	if id, ok := recv.(*ast.Ident); ok {
		return "(" + star + id.Name + ")." + fn.Name.Name
	}
	return fn.Name.Name
}
