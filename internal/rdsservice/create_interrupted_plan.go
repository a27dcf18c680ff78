package rdsservice

import (
	"context"
	"time"
)

// InterruptedKey is the journal's key of a create of kind whose configuration is config (text:
// the configuration as Terraform renders it, which the key hashes); "" while a value of it is
// unknown, which cannot be compared with an earlier run's.
func InterruptedKey(kind string, config AttrValue, text string) string {
	if config.IsNull() || !config.WhollyKnown() {
		return ""
	}
	return CreateKey(kind, text)
}

// PlanInterruptedCreate is what the plan of a new kind shows of the creates an interrupted apply
// left for its configuration (key: InterruptedKey; "" shows nothing, as does a plan without a
// journal): the adoption, the resend or the refusal (Interrupted.Problems), or the journal's read
// error. The id stays unknown even when the plan adopts: identical twins take the interrupted
// creates in the order they plan, which Terraform's final plan at apply (another process) may not
// repeat, and a known id that changed there would be an inconsistent final plan.
func PlanInterruptedCreate(ctx context.Context, env Env, kind, key string) []Problem {
	if env.Journal == nil || key == "" {
		return nil
	}
	v, err := env.Journal.InterruptedInstances(ctx, env.API, env.Region, InterruptedQuery{Kind: kind, Key: key}, time.Now())
	if err != nil {
		return []Problem{Raise(RuleCreateJournalUnreadable, "", env.Journal.Dir(), kind, err.Error())}
	}
	return v.Problems(kind, env.Journal.Dir())
}
