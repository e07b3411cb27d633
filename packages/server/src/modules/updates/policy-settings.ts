import {
  UPDATE_POLICY_CATEGORIES,
  type UpdatePoliciesResponse,
  type UpdatePolicyCategory,
  type UpdatePolicyItem,
} from '@berth/contracts';
import { badRequest, notFound } from '../../platform/http-errors.js';
import type { UpdatesStore } from './updates.store.js';

/** The update policy patterns: categories with an enabled switch, custom ones. */
export class PolicySettings {
  constructor(private readonly store: UpdatesStore) {}

  async list(): Promise<UpdatePoliciesResponse> {
    const categories = Object.fromEntries(
      UPDATE_POLICY_CATEGORIES.map((c) => [c, [] as UpdatePolicyItem[]]),
    ) as UpdatePoliciesResponse['categories'];
    for (const row of await this.store.policies()) {
      const list = categories[row.category as UpdatePolicyCategory];
      if ((UPDATE_POLICY_CATEGORIES as readonly string[]).includes(row.category))
        list.push({ id: row.id, pattern: row.pattern, enabled: row.enabled === 1 });
    }
    return { categories };
  }

  async toggleCategory(
    category: UpdatePolicyCategory,
    enabled: boolean,
  ): Promise<UpdatePoliciesResponse> {
    const n = await this.store.setCategoryEnabled(category, enabled);
    if (n === 0 && category !== 'custom') throw notFound(`No patterns in category ${category}`);
    return this.list();
  }

  async addCustom(pattern: string): Promise<UpdatePoliciesResponse> {
    const existing = (await this.store.policies()).find(
      (p) => p.pattern.toLowerCase() === pattern.toLowerCase(),
    );
    if (existing !== undefined) throw badRequest(`Pattern '${pattern}' already exists`);
    await this.store.addPolicy('custom', pattern);
    return this.list();
  }

  async deleteCustom(id: number): Promise<UpdatePoliciesResponse> {
    if (!(await this.store.deletePolicy(id, 'custom'))) throw notFound('Custom pattern not found');
    return this.list();
  }
}
