/** A path's entry for a kind it cannot manage in this build: choosing it fails with what to set instead. */
import { ConfigurationError } from "../../api/errors";
import { API_PATH_CONFIG_KEY, type ApiPath } from "../apiPath";

export function unavailable(path: ApiPath, what: string): () => never {
  return () => {
    throw new ConfigurationError(
      `${API_PATH_CONFIG_KEY} ${path} cannot manage ${what} in this version; set ${API_PATH_CONFIG_KEY} to graphql`,
      API_PATH_CONFIG_KEY,
    );
  };
}
