// The pages' door to the core's wording of a thrown value.
export { errorMessage } from '../core/errorMessage';
