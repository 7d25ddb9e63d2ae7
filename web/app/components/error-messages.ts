// Texts of the error pages (seed-spec §2, §8).
export const NOT_FOUND_MESSAGE = "This page could not be found";
export const ERROR_PAGE_FAILED_MESSAGE = "An error occurred while showing the error page";
export const GO_HOME_LABEL = "Go back to home";
