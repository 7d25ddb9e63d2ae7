package payments

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// Config is the Stripe configuration read from the environment.
type Config struct {
	SecretKey     string // LINEAGE_STRIPE_SECRET_KEY: sk_… or rk_…; empty = card payment off
	WebhookSecret string // LINEAGE_STRIPE_WEBHOOK_SECRET: the endpoint's whsec_… signing secret
	APIBase       string // LINEAGE_STRIPE_API: Stripe's API base URL; empty = api.stripe.com
	// WebhookMaxBytes is the largest webhook body accepted
	// (LINEAGE_STRIPE_WEBHOOK_MAX_BYTES, default DefaultWebhookMaxBytes).
	WebhookMaxBytes int64
}

// DefaultWebhookMaxBytes is far above any event Stripe sends (an invoice with its lines
// is a few tens of KiB) and small enough that a flood of junk costs little.
const DefaultWebhookMaxBytes = 1 << 20

// ConfigFromEnv reads the LINEAGE_STRIPE_* settings. A secret key without a webhook
// secret is refused: money would be taken and never seen.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	c := Config{
		SecretKey:       strings.TrimSpace(getenv("LINEAGE_STRIPE_SECRET_KEY")),
		WebhookSecret:   strings.TrimSpace(getenv("LINEAGE_STRIPE_WEBHOOK_SECRET")),
		APIBase:         strings.TrimSpace(getenv("LINEAGE_STRIPE_API")),
		WebhookMaxBytes: DefaultWebhookMaxBytes,
	}
	if v := strings.TrimSpace(getenv("LINEAGE_STRIPE_WEBHOOK_MAX_BYTES")); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1024 {
			return c, fmt.Errorf("LINEAGE_STRIPE_WEBHOOK_MAX_BYTES must be a number of bytes, at least 1024, got %q", v)
		}
		c.WebhookMaxBytes = n
	}
	return c, c.Validate()
}

// Validate checks the settings' shapes.
func (c Config) Validate() error {
	if c.SecretKey != "" && !strings.HasPrefix(c.SecretKey, "sk_") && !strings.HasPrefix(c.SecretKey, "rk_") {
		return fmt.Errorf("LINEAGE_STRIPE_SECRET_KEY must be a Stripe secret key (sk_… or rk_…)")
	}
	if c.SecretKey != "" && c.WebhookSecret == "" {
		return fmt.Errorf("LINEAGE_STRIPE_WEBHOOK_SECRET must be set when LINEAGE_STRIPE_SECRET_KEY is: without it no payment would ever be confirmed")
	}
	if c.WebhookSecret != "" && !strings.HasPrefix(c.WebhookSecret, "whsec_") {
		return fmt.Errorf("LINEAGE_STRIPE_WEBHOOK_SECRET must be the endpoint's signing secret (whsec_…)")
	}
	if c.APIBase != "" {
		u, err := url.Parse(c.APIBase)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("LINEAGE_STRIPE_API must be an absolute http(s) URL, got %q", c.APIBase)
		}
	}
	return nil
}
