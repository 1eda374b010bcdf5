package websub

import (
	"errors"
	"fmt"
	"net/http"
)

// Errors callers inspect with errors.Is.
var (
	// ErrClosed: the Subscriber was closed; it subscribes no more.
	ErrClosed = errors.New("subscriber closed")
	// ErrVerifyTimeout: the hub accepted a request but did not verify it
	// within Options.VerifyTimeout.
	ErrVerifyTimeout = errors.New("hub did not verify the request in time")
	// ErrNotNotification: a payload is well-formed XML but not a
	// ResourceSync notification (ParsePayload).
	ErrNotNotification = errors.New("not a ResourceSync notification")
)

// HubError is a hub's answer other than 2xx to a subscribe or unsubscribe
// request. For 429 and 5xx it is returned once every attempt was used.
type HubError struct {
	Status int    // HTTP status code
	Body   string // the start of the answer's body, for a person to read
}

// Error reads `hub answered 403 Forbidden: "topic not allowed"`; the hub's
// URL is in the error that wraps it.
func (e *HubError) Error() string {
	msg := fmt.Sprintf("hub answered %d %s", e.Status, http.StatusText(e.Status))
	if e.Body != "" {
		msg += fmt.Sprintf(": %q", e.Body)
	}
	return msg
}

// DeniedError is a hub's denial of a subscription (hub.mode=denied), with
// the reason the hub gave, if any.
type DeniedError struct {
	Reason string
}

// Error reads `hub denied the subscription: "reason"`.
func (e *DeniedError) Error() string {
	if e.Reason == "" {
		return "hub denied the subscription"
	}
	return fmt.Sprintf("hub denied the subscription: %q", e.Reason)
}
