// What other features may use of the newsletter: the sign-up form (the content slice
// and the footer place it in pages). Server-only parts stay in this feature's own modules.
export { NewsletterSignup } from "./SignupForm";
export { footerOffersSignup } from "./signup";
